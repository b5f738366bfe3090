// Rewind without an LLM: an operator whose folder holds `baseline/` (a slower version of
// itself) is a strong/baseline pair. The difference is split into hunks; each hunk is undone
// in the strong version alone (or, when that does not build or pass, together with the next
// hunk of the same file: the smallest group that does) and evaluated. A reversion that is
// correct and slower than the strong version by more than the noise threshold becomes an
// experience record: the hunk is the optimization, the two measurements its evidence.
#pragma once

#include "agent/workspace.h"
#include "bank/bank.h"

namespace ascendopt {

struct RewindOptions {
    double noise_threshold = 0.02;  // a reversion must be this much slower (relative) to count
    std::string soc;
    int64_t run = 0;  // the run store's run, for provenance
};

struct RewindStep {
    std::string hunks;  // "op_kernel/add_custom.cpp@5" (several joined by '+')
    std::string outcome;  // "record #3 (1.82x)", "not slower (1.003x)", "wrong_result: ...", "budget spent"
    // A step that made a record: its id in the bank, the slowdown the undo measured, and whether
    // an equivalent record was there already (outcome is record_outcome of these).
    int64_t record = 0;
    double ratio = 0;
    bool merged = false;
};

// The step that filed the record `put` for an undo `ratio` times slower.
RewindStep record_step(std::string hunks, const Bank::Put& put, double ratio);
// "record #3 (1.82x)", with ", merged" when an equivalent record took it.
std::string record_outcome(int64_t record, double ratio, bool merged);

struct RewindReport {
    std::string op;
    double strong_latency_us = 0;
    std::vector<RewindStep> steps;
    std::vector<int64_t> records;  // ids in the bank, new or merged
};

// The strong version is `runner.original()`; `baseline` its slower sibling.
Result<RewindReport> rewind_pair(CandidateRunner& runner, const OperatorSource& baseline, Bank& bank, const RewindOptions& options);

// Rewind of an operator that comes alone (`runner.original()`, e.g. a published cann-ops one):
// the de-optimizations of agent/deopt.h in turn, on a chained trajectory: each applies to the
// version the previous accepted one left, and one that is correct and slower than that version
// beyond the noise threshold becomes a record (the fast side is that version) and the next
// starting point. Stops when the budget is spent.
Result<RewindReport> rewind_by_rules(CandidateRunner& runner, Bank& bank, const RewindOptions& options);

// Operators under `suite` that hold a baseline/ folder, sorted.
std::vector<std::filesystem::path> rewind_pairs(const std::filesystem::path& suite);

}  // namespace ascendopt
