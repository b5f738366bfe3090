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
        if (result) {
            EvaluationRecord record = record_of(*result);
            reject_new_races(record);
            return record;
        }
        EvaluationRecord e;
        e.status = EvalStatus::run_failed;
        e.reason = result.error().message;
        return e;
    });
    if (!entry) return entry.error();
    if (!*entry) return std::optional<Evaluated>();
    return std::optional<Evaluated>(Evaluated{(*entry)->record, hash, (*entry)->cached});
}

namespace {

std::set<std::string> race_identities(const EvaluationRecord& r) {
    std::set<std::string> ids;
    if (const auto it = r.metrics.find("races"); it != r.metrics.end() && it->is_array())
        for (const auto& race : *it) ids.insert(race.value("identity", std::string()));
    return ids;
}

}  // namespace

void CandidateRunner::reject_new_races(EvaluationRecord& record) const {
    if (!m_original_races || record.status != EvalStatus::ok) return;
    const auto it = record.metrics.find("races");
    if (it == record.metrics.end() || !it->is_array()) return;
    for (const auto& race : *it) {
        if (m_original_races->count(race.value("identity", std::string()))) continue;
        record.status = EvalStatus::race;
        record.reason = "a race the original does not have: " + race.value("text", std::string());
        record.latency_us.reset();
        return;
    }
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
    m_original_races = race_identities((*evaluated)->record);
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
