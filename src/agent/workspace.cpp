#include "agent/workspace.h"

namespace ascendopt {

namespace fs = std::filesystem;

Result<OperatorSource> CandidateRunner::materialize(const CandidateFiles& files, std::string* hash_out) {
    auto hash = m_store.put_candidate(files);
    if (!hash) return hash.error();
    if (hash_out) *hash_out = *hash;
    return materialize_candidate(m_original, files, *hash, m_out);
}

Result<std::optional<Evaluated>> CandidateRunner::evaluate(const CandidateFiles& files) {
    std::string hash;
    auto op = materialize(files, &hash);
    if (!op) return op.error();
    auto entry = m_ledger.evaluate(hash, nlohmann::json::object(), [&] {
        auto result = m_evaluator.evaluate(*op);
        if (result) return record_of(*result);
        EvaluationRecord e;
        e.status = EvalStatus::run_failed;
        e.reason = result.error().message;
        return e;
    });
    if (!entry) return entry.error();
    if (!*entry) return std::optional<Evaluated>();
    return std::optional<Evaluated>(Evaluated{(*entry)->record, hash, (*entry)->cached});
}

Result<std::unique_ptr<CandidateSession>> CandidateSession::open(const OperatorSource& op, Evaluator& evaluator, const Where& where) {
    auto ledger = EvaluationLedger::open(where.store, where.run, where.budget);
    if (!ledger) return ledger.error();
    std::unique_ptr<CandidateSession> s(new CandidateSession(std::move(*ledger)));
    s->m_runner = std::make_unique<CandidateRunner>(op, evaluator, where.store, s->m_ledger, where.out_dir);
    return s;
}

}  // namespace ascendopt
