#include "eval/ledger.h"

#include "eval/profile.h"
#include "eval/race_report.h"

namespace ascendopt {
namespace {

// The bound and per-pipe medians of a profile: small enough to keep with every evaluation.
nlohmann::json compact_profile(const CaseResult& c) {
    const nlohmann::json full = profile_summary(c);
    nlohmann::json pipes = nlohmann::json::object();
    for (const auto& [pipe, x] : full["pipes"].items())
        pipes[pipe] = {{"busy_us", x["busy_us"]["median"]}, {"utilization", x["utilization"]["median"]}, {"instructions", x["instructions"]}};
    return {{"case", c.name}, {"latency_us", full["latency_us"]}, {"bound", full["bound"]}, {"pipes", pipes}, {"ub_bytes", full["ub_bytes"]}};
}

}  // namespace

std::optional<double> objective_latency(const EvalResult& r,
                                        const std::function<std::optional<double>(const CaseResult&)>& latency) {
    double perf = 0, all = 0;
    bool any_perf = false;
    for (const auto& c : r.cases) {
        if (!c.latency_us) continue;  // untimed cases (failed before timing) are not part of it
        const auto l = latency(c);
        if (!l) return std::nullopt;
        all += *l;
        if (c.role == CaseRole::perf) perf += *l, any_perf = true;
    }
    return any_perf ? perf : all;
}

EvaluationRecord record_of(const EvalResult& r) {
    EvaluationRecord e;
    e.status = r.status;
    e.reason = r.reason;
    const CaseResult* slowest = nullptr;
    for (const auto& c : r.cases) {
        if (!c.latency_us) continue;
        if (!slowest || (c.role == CaseRole::perf && (slowest->role != CaseRole::perf || *c.latency_us > *slowest->latency_us)) ||
            (slowest->role != CaseRole::perf && *c.latency_us > *slowest->latency_us))
            slowest = &c;
    }
    if (r.status == EvalStatus::ok) e.latency_us = objective_latency(r, [](const CaseResult& c) { return c.latency_us; });
    e.metrics = {{"cases", r.cases.size()}, {"build_seconds", r.build_seconds}, {"build_cached", r.build_cached}};
    if (slowest && slowest->twin.contains("timing")) e.metrics["profile"] = compact_profile(*slowest);
    if (auto races = race_summary(r); !races.empty()) e.metrics["races"] = std::move(races);
    return e;
}

Result<EvaluationLedger> EvaluationLedger::open(RunStore& store, int64_t run, int64_t limit) {
    auto used = store.count(run);
    if (!used) return used.error();
    return EvaluationLedger(store, run, Budget(limit, *used));
}

Result<std::optional<EvaluationRecord>> EvaluationLedger::lookup(const std::string& candidate, const nlohmann::json& config) {
    return m_store->find(m_run, candidate, config);
}

Status EvaluationLedger::commit(const EvaluationRecord& record) {
    if (auto s = m_store->record(m_run, record); !s) return s;
    m_budget.charge();
    return ok_status();
}

Result<std::optional<LedgerEntry>> EvaluationLedger::evaluate(const std::string& candidate, const nlohmann::json& config,
                                                              const std::function<EvaluationRecord()>& evaluate) {
    auto found = m_store->find(m_run, candidate, config);
    if (!found) return found.error();
    if (*found) return std::optional<LedgerEntry>(LedgerEntry{std::move(**found), true});
    if (m_budget.exhausted()) return std::optional<LedgerEntry>();
    EvaluationRecord r = evaluate();
    r.candidate = candidate;
    r.config = config;
    if (auto s = commit(r); !s) return s.error();
    return std::optional<LedgerEntry>(LedgerEntry{std::move(r), false});
}

}  // namespace ascendopt
