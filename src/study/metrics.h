// The study's metrics (issue 8), as the reference study defines them:
//   speedup   = baseline latency / best correct latency, 1.0 when nothing better was found;
//   GM        = geometric mean of the speedups over operators;
//   fast_p    = share of operators with speedup > p;
//   progress  = GM of best-so-far speedups after each evaluation (an operator that stopped
//               early keeps its last value).
// Pure functions over measured outcomes; no I/O.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ascendopt {

struct OperatorOutcome {
    std::string op;
    std::string level;  // a grouping for tables ("elementwise", "reduction", ...)
    double baseline_us = 0;
    // Latency of each evaluation in budget order; nullopt for one that failed (not correct).
    std::vector<std::optional<double>> evaluations;
};

// baseline / best correct latency over the first `first_n` evaluations (all when omitted); 1.0 when none beats the baseline.
double speedup(const OperatorOutcome& o, std::optional<size_t> first_n = std::nullopt);
double geometric_mean(const std::vector<double>& values);
double fast_p(const std::vector<double>& speedups, double p);

const std::vector<double>& default_fast_ps();  // 1.0, 1.2, 1.4, 1.8, 2.0

struct GroupSummary {
    size_t operators = 0;
    double gm = 1;
    std::map<double, double> fast;  // p -> share
};

struct MethodSummary {
    GroupSummary all;
    std::map<std::string, GroupSummary> by_level;
    std::vector<double> progress;  // progress[k] = GM after k+1 evaluations, k < budget
};

MethodSummary summarize(const std::vector<OperatorOutcome>& outcomes, size_t budget, const std::vector<double>& ps = default_fast_ps());

// A mean over independent repetitions (the study's seeds) with its two-sided 95% confidence
// interval from Student's t; one value gives a zero-width interval.
struct Interval {
    double mean = 0, low = 0, high = 0;
    size_t n = 0;
};
Interval mean_interval95(const std::vector<double>& values);

// A method over several seeds: each seed summarized as above, then combined. GMs (overall, per
// level, along the progress curve) combine geometrically and their interval is taken on the
// log scale; fast_p shares combine arithmetically.
struct SeededSummary {
    std::vector<MethodSummary> per_seed;
    MethodSummary combined;
    Interval gm;
    std::map<double, Interval> fast;
};
SeededSummary summarize_seeds(const std::vector<std::vector<OperatorOutcome>>& by_seed, size_t budget,
                              const std::vector<double>& ps = default_fast_ps());

}  // namespace ascendopt
