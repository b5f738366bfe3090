#include "cli/run_llm.h"

#include "llm/call_log.h"

namespace ascendopt {

Result<RunLlm> run_llm(LlmConfig config, const std::filesystem::path& dir, const std::filesystem::path& call_db) {
    RunLlm r;
    if (config.kind.empty()) return r;
    auto log = SqliteCallLog::open(call_db);
    if (!log) return log.error();
    std::shared_ptr<CallLog> calls = std::move(*log);
    config.resume = dir / "llm-replies.jsonl";
    r.identity = config.kind + ":" + config.model;
    r.params = config.params;
    r.make_proposer = [config, calls](int64_t run) { return make_proposer(config, calls, run); };
    return r;
}

}  // namespace ascendopt
