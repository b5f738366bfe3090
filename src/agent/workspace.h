// Evaluating whole-operator candidates (a rewritten kernel, a reverted hunk) through the run's
// ledger: each candidate's files are stored once by content hash in the run store, written to
// <out>/candidates/<hash>/<op>/ and evaluated on the original operator's cases. A repeated
// candidate is answered from the store for free, so a resumed run never pays twice.
// Not thread-safe.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "eval/candidate_folder.h"
#include "eval/evaluator.h"
#include "eval/ledger.h"
#include "util/files.h"

namespace ascendopt {

struct Evaluated {
    EvaluationRecord record;
    std::string hash;
    bool cached = false;
    bool ok() const { return record.status == EvalStatus::ok && record.latency_us.has_value(); }
};

class CandidateRunner {
public:
    CandidateRunner(OperatorSource original, Evaluator& evaluator, RunStore& store, EvaluationLedger& ledger, std::filesystem::path out_dir)
        : m_original(std::move(original)), m_evaluator(evaluator), m_store(store), m_ledger(ledger), m_out(std::move(out_dir)) {}

    // The evaluation of `files`; nullopt when it is new and the budget is spent. Once the
    // original is measured, a candidate with a race the original does not have (twin/rt/hazard.h;
    // the same kind between the same pipes and APIs, wherever the lines moved) fails with status
    // race: a rewrite that drops a needed synchronisation is not a correct candidate.
    Result<std::optional<Evaluated>> evaluate(const CandidateFiles& files);
    // The original operator's files and their evaluation, the starting point of a method; an
    // error when the budget cannot pay for it or the original does not pass its cases.
    struct Start {
        CandidateFiles files;
        Evaluated evaluated;
        double latency_us() const { return *evaluated.record.latency_us; }
    };
    Result<Start> measure_original();
    // The candidate as an operator folder (written once), with the original's cases.
    Result<OperatorSource> materialize(const CandidateFiles& files, std::string* hash = nullptr);
    const OperatorSource& original() const { return m_original; }
    EvaluationLedger& ledger() { return m_ledger; }
    Evaluator& evaluator() { return m_evaluator; }

private:
    OperatorSource m_original;
    Evaluator& m_evaluator;
    RunStore& m_store;
    EvaluationLedger& m_ledger;
    std::filesystem::path m_out;
    std::optional<std::set<std::string>> m_original_races;  // race identities, once the original is measured
    void reject_new_races(EvaluationRecord& record) const;
};

// Everything a run needs to evaluate whole-operator candidates, opened in one call: the run's
// ledger with its budget and the runner over the session's evaluator. Heap-held because the
// runner refers to the ledger.
class CandidateSession {
public:
    struct Where {
        RunStore& store;
        int64_t run = 0;
        int64_t budget = 0;
        std::filesystem::path out_dir;
    };
    static Result<std::unique_ptr<CandidateSession>> open(const OperatorSource& op, Evaluator& evaluator, const Where& where);
    CandidateRunner& runner() { return *m_runner; }
    EvaluationLedger& ledger() { return m_ledger; }

private:
    explicit CandidateSession(EvaluationLedger ledger) : m_ledger(std::move(ledger)) {}
    EvaluationLedger m_ledger;
    std::unique_ptr<CandidateRunner> m_runner;
};

}  // namespace ascendopt
