// Evaluations of a run, at most once each: the ledger answers a repeated (candidate,
// configuration) from the run store for free, runs a new one when budget remains, commits
// its record before returning it, and charges the budget whatever the outcome. A resumed run
// starts with the budget its store already spent. Not thread-safe.
#pragma once

#include <functional>

#include "core/budget.h"
#include "core/eval_result.h"
#include "eval/run_store.h"

namespace ascendopt {

// The record of an evaluation. Its latency is the objective every search minimizes: the
// summed latency of the perf cases (of all cases when none is marked perf). Its metrics hold
// the profile of the slowest perf case (bound and per-pipe busy time), the evidence that
// experience records cite.
EvaluationRecord record_of(const EvalResult& r);

// The searches' objective from per-case latencies: the sum over perf cases, or over every timed
// case when none is marked perf. `latency` picks a case's figure (nominal or one timing variant);
// a timed case without one makes the whole objective unknown (nullopt).
std::optional<double> objective_latency(const EvalResult& r,
                                        const std::function<std::optional<double>(const CaseResult&)>& latency);

struct LedgerEntry {
    EvaluationRecord record;
    bool cached = false;
};

class EvaluationLedger {
public:
    // `limit` is the run's budget; what the store already holds for `run` counts as spent.
    static Result<EvaluationLedger> open(RunStore& store, int64_t run, int64_t limit);

    const Budget& budget() const { return m_budget; }
    // Caps (or uncaps) what the run may have spent in all: a stage of a larger run spends up to
    // its share of the one budget, the next stage the rest.
    void limit_to(int64_t limit) { m_budget = Budget(limit, m_budget.used()); }
    RunStore& store() const { return *m_store; }
    int64_t run() const { return m_run; }
    // Every evaluation's latency in commit order (nullopt: it did not pass); the run's own
    // account, for progress-versus-budget curves.
    Result<std::vector<std::optional<double>>> latencies() const { return m_store->latencies(m_run); }

    // The record of (candidate, config): from the store, or by calling `evaluate` when budget
    // remains. nullopt when it is new and the budget is spent.
    Result<std::optional<LedgerEntry>> evaluate(const std::string& candidate, const nlohmann::json& config,
                                                const std::function<EvaluationRecord()>& evaluate);

    // The two halves of evaluate(), for callers that run evaluations in parallel: look up
    // first, evaluate outside the ledger, then commit in a fixed order.
    Result<std::optional<EvaluationRecord>> lookup(const std::string& candidate, const nlohmann::json& config);
    Status commit(const EvaluationRecord& record);

private:
    EvaluationLedger(RunStore& store, int64_t run, Budget budget) : m_store(&store), m_run(run), m_budget(budget) {}
    RunStore* m_store;
    int64_t m_run;
    Budget m_budget;
};

}  // namespace ascendopt
