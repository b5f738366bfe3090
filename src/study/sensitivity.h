// How far a speedup can move with what the timing model does not know (`bench --sensitivity`).
// The same two programs of a job (the published operator and the method's final one) are
// re-timed, with no new search, under variants of the SoC description: the nominal file, each
// estimated parameter (eval/soc_params.h) alone at the low and at the high end of its range, and
// random samples with every estimated parameter drawn within its range at once. Each operator's
// speedup is then reported as median [min, max] over those variants, with the GM of the nominal
// speedups, a robust GM (of the per-operator minima) and the GM without the largest contributor.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "eval/evaluator.h"
#include "eval/soc_params.h"
#include "eval/soc_variants.h"

namespace ascendopt {

// One program pair's speedup under every variant, in variant order.
struct PairSensitivity {
    std::string method, op;
    uint64_t seed = 0;
    std::vector<double> speedups;  // published latency / final latency
};

// Speedups of one operator pooled over its jobs (seeds): `nominal` is the median of the jobs'
// nominal speedups, `min_at` names the variant of the minimum.
struct OperatorSensitivity {
    std::string op;
    double nominal = 1, median = 1, min = 1, max = 1;
    std::string min_at;
};
std::vector<OperatorSensitivity> per_operator(const std::vector<PairSensitivity>& pairs, const std::vector<SocVariant>& variants);

struct SensitivitySummary {
    double gm = 1;                  // of the nominal speedups
    double robust_gm = 1;           // of the per-operator minima
    double gm_without_largest = 1;  // of the nominal speedups, the largest left out
    std::string largest;            // the operator left out
};
SensitivitySummary summarize(const std::vector<OperatorSensitivity>& ops);

// sensitivity.json: the variants' labels, every pair, per method its operators and summary.
nlohmann::json sensitivity_json(const std::vector<SocVariant>& variants,
                                const std::vector<std::pair<std::string, std::vector<PairSensitivity>>>& by_method);

}  // namespace ascendopt
