// `ascendopt calibrate --compare`: how well the twin's timing model ranks what a machine
// measures. The perf cases of a set of operators run on the session's backend (the machine) and
// are timed by the twin (the model); the figure is Spearman's rank correlation of their
// latencies, and, over the operators that keep a slower version beside them (<op>/baseline/),
// of their speedups: whether the model orders candidates as the machine does, which is all a
// search needs of it (docs/calibrate.md "Does the model rank as the machine does?").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "eval/evaluator.h"

namespace ascendopt {

// Spearman's rank correlation of paired samples (tied values share their average rank);
// nullopt with fewer than three pairs, or when one side has a single value throughout.
std::optional<double> spearman(const std::vector<double>& a, const std::vector<double>& b);

struct ComparedCase {
    std::string op;    // the operator folder as given
    std::string name;  // the perf case
    double model_us = 0, machine_us = 0;
};

// baseline latency / operator latency, each the geometric mean over the perf cases both have.
struct ComparedSpeedup {
    std::string op;
    double model = 0, machine = 0;
    size_t cases = 0;
};

struct Comparison {
    std::vector<ComparedCase> cases;
    std::vector<ComparedSpeedup> speedups;
    std::vector<std::string> skipped;  // "<op>: why": failed or untimed on either side
    std::optional<double> latency_rho, speedup_rho;
};

// Runs the perf cases of each operator folder (and of its baseline/, when it has one) on
// `machine` and on `model`. An operator that fails on either is skipped with the reason; an
// error only for a folder that is not an operator.
Result<Comparison> compare_backends(const std::vector<std::string>& operators, Evaluator& machine, Evaluator& model,
                                    const ProgressFn& progress);

}  // namespace ascendopt
