// The Proposer for OpenAI-compatible Chat Completions (POST {base_url}/chat/completions).
// Non-streaming: the reply arrives whole. Thread-safe through its endpoint.
#pragma once

#include <memory>

#include "llm/endpoint.h"
#include "llm/proposer.h"

namespace ascendopt {

struct Prices {
    double input_per_million_tokens = 0;   // USD
    double output_per_million_tokens = 0;  // USD
};

class ChatClient final : public Proposer {
public:
    ChatClient(std::shared_ptr<OpenAiEndpoint> endpoint, std::string model, Prices prices = {});
    Result<ChatReply> propose(const ChatRequest& request) override;
    std::string describe() const override;
    std::string model() const override { return m_model; }

    // The JSON body sent for `request` (exposed for tests and cassettes).
    nlohmann::json request_body(const ChatRequest& request) const;

private:
    std::shared_ptr<OpenAiEndpoint> m_endpoint;
    std::string m_model;
    Prices m_prices;
};

// Reads a Chat Completions reply; an error says what the reply lacks.
Result<ChatReply> parse_chat_reply(const nlohmann::json& body);

}  // namespace ascendopt
