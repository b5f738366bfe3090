#include "llm/proposer.h"

#include "util/hash.h"

namespace ascendopt {

nlohmann::json to_json(const GenerationParams& p) {
    nlohmann::json j = nlohmann::json::object();
    if (p.temperature) j["temperature"] = *p.temperature;
    if (p.top_p) j["top_p"] = *p.top_p;
    if (p.max_tokens) j[p.use_max_completion_tokens ? "max_completion_tokens" : "max_tokens"] = *p.max_tokens;
    if (p.seed) j["seed"] = *p.seed;
    if (!p.stop.empty()) j["stop"] = p.stop;
    return j;
}

nlohmann::json to_json(const std::vector<ChatMessage>& messages) {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& m : messages) j.push_back({{"role", m.role}, {"content", m.content}});
    return j;
}

// nlohmann::json objects keep keys sorted, so dump() is canonical.
std::string request_key(const std::string& model, const ChatRequest& request) {
    const nlohmann::json j = {{"model", model}, {"messages", to_json(request.messages)}, {"params", to_json(request.params)}};
    return sha256_hex(j.dump());
}

std::string messages_hash(const std::vector<ChatMessage>& messages) { return sha256_hex(to_json(messages).dump()); }

}  // namespace ascendopt
