#include "eval/ledger.h"

namespace ascendopt {

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
