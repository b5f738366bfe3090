// The LLM side of one run folder, shared by the commands that evaluate LLM proposals
// (optimize, bench): a proposer factory whose calls are accounted in the folder's call log and
// whose replies are kept in <dir>/llm-replies.jsonl, so a resumed run takes the same path and
// pays for no call twice.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>

#include "llm/factory.h"

namespace ascendopt {

using ProposerFactory = std::function<Result<std::unique_ptr<Proposer>>(int64_t run)>;

struct RunLlm {
    ProposerFactory make_proposer;  // empty: no LLM configured
    std::string identity = "transfer";  // "kind:model"; part of a run's identity
    GenerationParams params;
};

// `config.kind` empty gives an empty RunLlm. Calls go to `call_db` (a run store's SQLite file).
Result<RunLlm> run_llm(LlmConfig config, const std::filesystem::path& dir, const std::filesystem::path& call_db);

}  // namespace ascendopt
