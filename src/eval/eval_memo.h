// Replaying evaluations: the twin is deterministic, so an evaluation of the same sources,
// cases, host tunables and session settings gives the same result every time. A search that
// proposes a configuration another method, seed or run already measured (the study runs the
// same operator under several methods and seeds) reads the stored result instead of running
// every case again. A replayed evaluation still counts against the budget of whoever asked
// for it: the memo saves wall time, never evaluations.
//
// A stored result keeps everything but the per-block timing breakdown of its check cases
// (about 25 KB a case on 48 cores, read by nothing that replays: the searches use the perf
// cases' profile), so a study's thousands of evaluations stay in megabytes.
//
// Only results that do not depend on the machine are stored: every case ok or wrong_result
// (a known defect may fail any way). Timeouts, crashes, golden failures and build failures
// are evaluated again, since load or a limit can cause them. Settings that make a result
// vary or carry side products (simulated noise, traces, kept work folders) turn the memo off.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/eval_result.h"

namespace ascendopt {

struct EvalOptions;

class EvalMemo {
public:
    // Results live under `dir` (the cache's evals/ folder), one file per key.
    explicit EvalMemo(std::filesystem::path dir);

    // Whether evaluations under `options` may be replayed at all.
    static bool applies(const EvalOptions& options);

    // What identifies an evaluation: the build (the host build's key covers the toolchain and
    // every source; the kernel binaries are content-addressed), the cases exactly as run with
    // their goldens' contents, the operator runs' environment, the settings that affect a
    // result, and this ascendopt executable.
    static std::string key(const std::string& host_key, const std::vector<std::filesystem::path>& kernel_binaries,
                           const std::vector<Case>& cases, const std::map<std::string, std::string>& env, const EvalOptions& options);

    std::optional<EvalResult> find(const std::string& key) const;
    // Stores `result` when it is machine-independent (see above); a failure to write only
    // costs a later replay.
    void store(const std::string& key, const EvalResult& result) const;

private:
    static bool storable(const EvalResult& result);

    std::filesystem::path m_dir;
};

}  // namespace ascendopt
