#include "llm/chat_client.h"

#include <chrono>

namespace ascendopt {
namespace {

int64_t int_or_zero(const nlohmann::json& j, const char* key) {
    return j.is_object() && j.contains(key) && j[key].is_number_integer() ? j[key].get<int64_t>() : 0;
}

// "content" is a string, or (some servers) a list of {"type": "text", "text": ...} parts.
std::optional<std::string> content_text(const nlohmann::json& message) {
    if (!message.is_object() || !message.contains("content")) return std::nullopt;
    const auto& c = message["content"];
    if (c.is_string()) return c.get<std::string>();
    if (!c.is_array()) return std::nullopt;
    std::string text;
    for (const auto& part : c)
        if (part.is_object() && part.contains("text") && part["text"].is_string()) text += part["text"].get<std::string>();
    return text;
}

}  // namespace

Result<ChatReply> parse_chat_reply(const nlohmann::json& body) {
    if (!body.contains("choices") || !body["choices"].is_array() || body["choices"].empty())
        return make_error("the LLM reply has no choices", "the server may not be OpenAI-compatible; check the base URL");
    const auto& choice = body["choices"][0];
    const auto text = choice.is_object() && choice.contains("message") ? content_text(choice["message"]) : std::nullopt;
    if (!text) return make_error("the LLM reply's first choice has no message content");
    ChatReply reply;
    reply.text = *text;
    if (body.contains("model") && body["model"].is_string()) reply.model = body["model"];
    if (choice.contains("finish_reason") && choice["finish_reason"].is_string()) reply.finish_reason = choice["finish_reason"];
    if (body.contains("usage")) {
        reply.usage.prompt_tokens = int_or_zero(body["usage"], "prompt_tokens");
        reply.usage.completion_tokens = int_or_zero(body["usage"], "completion_tokens");
    }
    return reply;
}

ChatClient::ChatClient(std::shared_ptr<OpenAiEndpoint> endpoint, std::string model, Prices prices)
    : m_endpoint(std::move(endpoint)), m_model(std::move(model)), m_prices(prices) {}

nlohmann::json ChatClient::request_body(const ChatRequest& request) const {
    nlohmann::json body = to_json(request.params);
    body["model"] = m_model;
    body["messages"] = to_json(request.messages);
    body["stream"] = false;
    return body;
}

Result<ChatReply> ChatClient::propose(const ChatRequest& request) {
    const auto start = std::chrono::steady_clock::now();
    auto posted = m_endpoint->post_json("/chat/completions", request_body(request));
    if (!posted) return posted.error();
    auto reply = parse_chat_reply(posted->body);
    if (!reply) return reply.error();
    reply->attempts = posted->attempts;
    if (reply->model.empty()) reply->model = m_model;
    reply->latency_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    reply->cost_usd = (double(reply->usage.prompt_tokens) * m_prices.input_per_million_tokens +
                       double(reply->usage.completion_tokens) * m_prices.output_per_million_tokens) / 1e6;
    return reply;
}

std::string ChatClient::describe() const { return "openai-compatible " + m_model + " at " + m_endpoint->config().base_url; }

}  // namespace ascendopt
