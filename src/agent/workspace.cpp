#include "agent/workspace.h"

#include "util/files.h"

namespace ascendopt {

namespace fs = std::filesystem;

Result<CandidateFiles> read_candidate_files(const OperatorSource& op) {
    CandidateFiles files;
    for (const auto& f : op.all_files) {
        auto text = read_text(f);
        if (!text) return text.error();
        files[fs::relative(f, op.root).generic_string()] = std::move(*text);
    }
    return files;
}

Result<OperatorSource> CandidateRunner::materialize(const CandidateFiles& files, std::string* hash_out) {
    auto hash = m_store.put_candidate(files);
    if (!hash) return hash.error();
    if (hash_out) *hash_out = *hash;
    const fs::path dir = m_out / "candidates" / hash->substr(0, 16) / m_original.root.filename();
    std::error_code ec;
    if (!fs::exists(dir / ".complete", ec)) {
        for (const auto& [rel, text] : files) {
            fs::create_directories((dir / rel).parent_path());
            if (auto s = write_atomic(dir / rel, text); !s) return s.error();
        }
        if (auto s = write_atomic(dir / ".complete", ""); !s) return s.error();
    }
    auto op = load_operator(dir);
    if (!op) return op.error();
    op->cases = m_original.cases;  // the original's cases, whatever the folder holds
    op->op_type = m_original.op_type;
    op->hidden_case = m_original.hidden_case;
    op->manifest = m_original.manifest;
    return op;
}

Result<std::optional<Evaluated>> CandidateRunner::evaluate(const CandidateFiles& files) {
    std::string hash;
    auto op = materialize(files, &hash);
    if (!op) return op.error();
    auto entry = m_ledger.evaluate(hash, nlohmann::json::object(), [&] {
        auto result = m_evaluator.evaluate(*op, [](const std::string&, const std::string&) {});
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

Result<std::unique_ptr<CandidateSession>> CandidateSession::open(const OperatorSource& op, Builder& builder, GoldenRunner& golden,
                                                                 const EvalOptions& eval, const Where& where) {
    auto ledger = EvaluationLedger::open(where.store, where.run, where.budget);
    if (!ledger) return ledger.error();
    auto scratch = make_temp_dir(where.out_dir, "case-data");
    if (!scratch) return scratch.error();
    std::unique_ptr<CandidateSession> s(new CandidateSession(std::move(*ledger), *scratch));
    s->m_evaluator = make_twin_evaluator(builder, golden, eval, std::make_shared<CaseDataStore>(*scratch, golden));
    s->m_runner = std::make_unique<CandidateRunner>(op, *s->m_evaluator, where.store, s->m_ledger, where.out_dir);
    return s;
}

}  // namespace ascendopt
