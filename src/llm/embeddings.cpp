#include "llm/embeddings.h"

#include <cmath>

namespace ascendopt {

EmbeddingsClient::EmbeddingsClient(std::shared_ptr<OpenAiEndpoint> endpoint, std::string model)
    : m_endpoint(std::move(endpoint)), m_model(std::move(model)) {}

Result<std::vector<std::vector<float>>> EmbeddingsClient::embed(const std::vector<std::string>& inputs) {
    if (inputs.empty()) return std::vector<std::vector<float>>{};
    auto posted = m_endpoint->post_json("/embeddings", {{"model", m_model}, {"input", inputs}});
    if (!posted) return posted.error();
    const auto& data = posted->body.contains("data") ? posted->body["data"] : nlohmann::json();
    if (!data.is_array() || data.size() != inputs.size())
        return make_error("the embeddings reply holds " + std::to_string(data.is_array() ? data.size() : 0) + " vectors for " +
                          std::to_string(inputs.size()) + " inputs");
    std::vector<std::vector<float>> out(inputs.size());
    for (size_t i = 0; i < data.size(); ++i) {
        const auto& item = data[i];
        const size_t index = item.contains("index") && item["index"].is_number_unsigned() ? item["index"].get<size_t>() : i;
        if (index >= out.size() || !item.contains("embedding") || !item["embedding"].is_array())
            return make_error("the embeddings reply's item " + std::to_string(i) + " has no usable embedding");
        for (const auto& x : item["embedding"]) {
            if (!x.is_number()) return make_error("the embeddings reply's item " + std::to_string(i) + " holds a non-number");
            out[index].push_back(x.get<float>());
        }
    }
    for (const auto& v : out)
        if (v.empty() || v.size() != out[0].size()) return make_error("the embeddings reply's vectors are empty or of different lengths");
    return out;
}

double cosine_similarity(const std::vector<float>& a, const std::vector<float>& b) {
    if (a.size() != b.size() || a.empty()) return 0;
    double dot = 0, na = 0, nb = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        dot += double(a[i]) * b[i];
        na += double(a[i]) * a[i];
        nb += double(b[i]) * b[i];
    }
    return na == 0 || nb == 0 ? 0 : dot / std::sqrt(na * nb);
}

}  // namespace ascendopt
