// Builds the proposer a configuration asks for, wrapped for recording and accounting:
//   kind openai  -> ChatClient            (base_url, model, api_key, ...)
//   kind command -> CommandProposer       (command)
//   kind replay  -> ReplayProposer        (replay cassette)
// then RecordingProposer when `record` names a cassette, then ResumingProposer when `resume`
// names the run's own cassette, then AccountedProposer when a call log is given (so replayed
// answers are accounted too, with their recorded usage). The only place that knows the kinds.
#pragma once

#include <memory>
#include <optional>

#include "llm/call_log.h"
#include "llm/chat_client.h"
#include "llm/command_proposer.h"
#include "llm/embeddings.h"

namespace ascendopt {

struct LlmConfig {
    std::string kind;  // "openai", "command", "replay"; empty: none configured
    EndpointConfig endpoint;
    std::string model;
    std::string embedding_model;  // empty: no dense retrieval
    Prices prices;
    GenerationParams params;  // defaults for every request
    CommandProposerConfig command;
    std::filesystem::path record;  // cassette to append to; empty: none
    std::filesystem::path replay;  // cassette to answer from (kind replay)
    std::filesystem::path resume;  // a run's own cassette: replayed first, then extended (ResumingProposer)
};

// Why no proposer can be made, or the proposer. `log` may be null.
Result<std::unique_ptr<Proposer>> make_proposer(const LlmConfig& config, std::shared_ptr<CallLog> log = nullptr,
                                                std::optional<int64_t> run = std::nullopt);

// The embeddings client, or nullptr when no embedding model (or no endpoint) is configured.
std::unique_ptr<EmbeddingsClient> make_embeddings(const LlmConfig& config);

}  // namespace ascendopt
