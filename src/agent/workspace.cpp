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

Result<CandidateRunner::Start> CandidateRunner::measure_original() {
    const std::string name = m_original.display_name();
    auto files = read_candidate_files(m_original);
    if (!files) return files.error();
    auto evaluated = evaluate(*files);
    if (!evaluated) return evaluated.error();
    if (!*evaluated) return make_error("no budget left to measure " + name);
    if (!(*evaluated)->ok())
        return make_error(name + " does not pass its cases: " + (*evaluated)->record.reason,
                          "every method starts from a correct operator; `ascendopt eval` shows what fails");
    return Start{std::move(*files), std::move(**evaluated)};
}

Result<std::unique_ptr<CandidateSession>> CandidateSession::open(const OperatorSource& op, Evaluator& evaluator, const Where& where) {
    auto ledger = EvaluationLedger::open(where.store, where.run, where.budget);
    if (!ledger) return ledger.error();
    std::unique_ptr<CandidateSession> s(new CandidateSession(std::move(*ledger)));
    s->m_runner = std::make_unique<CandidateRunner>(op, evaluator, where.store, s->m_ledger, where.out_dir);
    return s;
}

}  // namespace ascendopt
