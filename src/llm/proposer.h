// The Proposer interface: something that writes code when given a conversation. Its kinds
// (an OpenAI-compatible endpoint, the user's own command, a recorded cassette) are
// interchangeable; the agent never learns which one it talks to.
// Contract: propose() blocks until a reply or a final failure, returns failures as values,
// and is safe to call from several threads at once (each kind limits its own concurrency).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "util/result.h"

namespace ascendopt {

struct ChatMessage {
    std::string role;  // "system", "user" or "assistant"
    std::string content;
};

struct GenerationParams {
    std::optional<double> temperature;
    std::optional<double> top_p;
    std::optional<int64_t> max_tokens;
    // Newer OpenAI models reject max_tokens and take max_completion_tokens instead.
    bool use_max_completion_tokens = false;
    std::optional<int64_t> seed;
    std::vector<std::string> stop;
};

struct ChatRequest {
    std::vector<ChatMessage> messages;
    GenerationParams params;
    std::string purpose;  // what the call is for ("ping", "rewind", "stage1"); recorded, not part of the key
};

struct TokenUsage {
    int64_t prompt_tokens = 0;
    int64_t completion_tokens = 0;
    int64_t total() const { return prompt_tokens + completion_tokens; }
};

struct ChatReply {
    std::string text;
    std::string model;       // the model that answered, as the server named it
    TokenUsage usage;
    bool usage_estimated = false;  // true when the kind cannot count tokens and guessed
    double latency_seconds = 0;  // wall time of the whole call, retries and waits included
    double cost_usd = 0;         // from the configured prices; 0 when none are set
    int attempts = 1;            // HTTP attempts (1 for kinds that do not retry)
    std::string finish_reason;   // "stop", "length", ... when the kind reports one
    bool resumed = false;        // answered from the run's own cassette: already accounted when it was first made
};

class Proposer {
public:
    virtual ~Proposer() = default;
    virtual Result<ChatReply> propose(const ChatRequest& request) = 0;
    // Names the kind and model for logs: "openai-compatible qwen2.5-coder at http://...".
    virtual std::string describe() const = 0;
    // The model name used in cassette keys and call records.
    virtual std::string model() const = 0;
};

// Request identity for cassettes and call records: SHA-256 of the model, the messages and
// the generation parameters in a canonical JSON form.
std::string request_key(const std::string& model, const ChatRequest& request);
// Hash of the messages alone (stored with every call, never the text itself).
std::string messages_hash(const std::vector<ChatMessage>& messages);

nlohmann::json to_json(const GenerationParams& p);
nlohmann::json to_json(const std::vector<ChatMessage>& messages);

}  // namespace ascendopt
