// Stage II: profiling-in-the-loop search over an operator's tunables (`ascendopt tune`).
// Every configuration is built (kernel tunables: one build per kernel configuration, cached
// by content; host tunables: injected at run time, no rebuild), checked on every case and
// timed on the perf cases; the objective is the sum of the perf cases' simulated latency.
// All evaluations go through the run store in the output folder, so a killed tune resumes
// with the same proposals and loses nothing it committed.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>

#include "eval/evaluator.h"
#include "eval/ledger.h"
#include "search/space.h"
#include "search/strategy.h"

namespace ascendopt {

struct TuneOptions {
    int64_t budget = 60;
    std::string strategy = "ga";
    uint64_t seed = 0;
    std::filesystem::path out_dir;
    int workers = 2;

    // Stage II as the study and optimize run it: the default strategy, the given search seed,
    // one worker per parallel build.
    static TuneOptions for_stage2(const EvalOptions& eval, uint64_t search_seed, int64_t budget, std::filesystem::path out_dir) {
        TuneOptions t;
        t.budget = budget;
        t.seed = search_seed;
        t.out_dir = std::move(out_dir);
        t.workers = eval.jobs;
        return t;
    }
};

struct TuneProgress {
    int64_t used = 0;
    int64_t budget = 0;
    int64_t cache_hits = 0;
    std::optional<double> best_us;
    std::optional<double> baseline_us;
    double seconds = 0;
};

struct TuneResult {
    std::string op;
    std::vector<Tunable> tunables;
    TilingConfig baseline, best;
    std::optional<double> baseline_us, best_us;
    int64_t evaluations = 0;
    int64_t cache_hits = 0;
    // The run's evaluations' latencies in commit order (nullopt: not correct).
    std::vector<std::optional<double>> latencies;
    std::filesystem::path tuned_dir;
    nlohmann::json summary;
    // `op` has no constant to tune: nothing was evaluated and nothing else is set. The caller
    // decides what that means (`ascendopt tune`: an error; optimize: Stage I's result stands).
    bool nothing_to_tune = false;
    // Under --robust, what the check of the best configuration across the SoC's estimated
    // ranges found (empty without --robust, or when the best is the original).
    std::string robust;
};

// The UB a tiling may plan with on the evaluator's SoC.
uint64_t soc_ub_bytes(const EvalOptions& eval);

// A larger run Stage II is part of (optimize): its evaluations go into that run's ledger and
// spend from its budget, instead of a run store of their own under out_dir.
struct SharedRun {
    EvaluationLedger& ledger;
    std::filesystem::path store_file;  // for the summary
};

// Stage II of `op` with `evaluator` (its SoC and input seed are the run's). With `shared`, it
// spends what the shared ledger's limit allows (options.budget is then for progress only),
// TuneResult::evaluations counts what this call spent, and latencies are the whole run's.
Result<TuneResult> tune(const OperatorSource& op, Evaluator& evaluator, const TuneOptions& options,
                        const std::function<void(const TuneProgress&)>& progress, SharedRun* shared = nullptr);

}  // namespace ascendopt
