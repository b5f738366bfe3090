// The SoC description under what the timing model does not know: variants with each estimated
// parameter (eval/soc_params.h) at the ends of its range, and random draws within all ranges;
// the same programs re-timed under them (no new search); and whether a change is faster under
// every one of them (`--robust`: Stage I and Stage II accept only such changes).
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "eval/evaluator.h"
#include "eval/soc_params.h"

namespace ascendopt {

struct SocVariant {
    std::string label;  // "nominal", "mte.latency_cycles=low", "sample-3"
    nlohmann::json soc;
};

// Nominal first, then each uncertain parameter's low and high end, then `samples` draws
// (log-uniform within each range, from `seed`): the same list for the same inputs.
std::vector<SocVariant> sensitivity_variants(const nlohmann::json& soc, const std::vector<SocParameter>& params, int samples,
                                             uint64_t seed);

// `variant` as host code sees the chip of `nominal`: GetCoreMemBw keeps the nominal's figure
// (mte.reported_bytes_per_cycle), so a variant tiles as the nominal does and only the timing
// model's belief about the device differs.
nlohmann::json with_nominal_platform_view(nlohmann::json variant, const nlohmann::json& nominal);

// Whether two SoC descriptions are the same chip to a kernel and its tiling (name, cores,
// memories, clock, the bandwidth GetCoreMemBw reports), so that they differ only in what the
// timing model reads: one run can then time both (EvalRequest::timing_variants).
bool same_chip(const nlohmann::json& a, const nlohmann::json& b);

// The latency that the searches minimise (eval/ledger.h) of `op` with host tunables `env` under
// every variant (EvalRequest::soc_description, so that one evaluator's inputs and goldens serve
// them all): perf cases only, all cases when the manifest marks none. An error when one does
// not pass. The variants of the nominal's chip are timed in the nominal's runs
// (EvalRequest::timing_variants); the others, and all of them for a launch whose cores
// exchange times, each in runs of their own.
Result<std::vector<double>> retime(const OperatorSource& op, const std::vector<SocVariant>& variants, Evaluator& evaluator,
                                   const std::map<std::string, std::string>& env = {});

// `after` against `before` under every variant: the smallest speedup (before / after) and the
// variant it came from, and the nominal one (variant 0).
struct RobustGain {
    double nominal = 1;
    double worst = 1;
    std::string worst_at;
};
struct TimedProgram {
    const OperatorSource& op;
    std::map<std::string, std::string> env;  // host tunables
};
Result<RobustGain> robust_gain(const TimedProgram& before, const TimedProgram& after, const std::vector<SocVariant>& variants,
                               Evaluator& evaluator);

// The variants --robust judges by (EvalOptions::robust_variants), and back.
nlohmann::json to_json(const std::vector<SocVariant>& variants);
std::vector<SocVariant> robust_variants(const EvalOptions& options);

// What a search says of a change --robust refused: "1.18x on the nominal SoC, 0.97x at
// mte.latency_cycles=low".
std::string describe_robust(const RobustGain& g);

}  // namespace ascendopt
