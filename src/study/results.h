// results.json and results.csv of a study: per method, the summary (all operators, by level,
// the progress curve, LLM calls, tokens and cost) and every operator's run. `ascendopt bench`
// writes them and `ascendopt report` reads them; the metrics come from study/metrics.h only.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "study/methods.h"

namespace ascendopt {

struct StudyHeader {
    std::string suite;
    int64_t budget = 0;
    uint64_t seed = 0;                // of the inputs
    std::vector<uint64_t> seeds = {0};  // the study seeds (StudyPlan::seeds)
    int64_t rewind_share = 0;
    std::string latency_source = "sim";  // latency_source_of(the backend)
};

// `runs` per method name, in the order the methods ran; each method's runs in operator order.
nlohmann::json study_results(const StudyHeader& header, const std::vector<std::pair<std::string, std::vector<MethodRun>>>& runs);
std::string study_csv(const nlohmann::json& results);

// The speedup of one run, and of one per-operator entry of results.json (study/metrics.h's definition).
double run_speedup(const MethodRun& run);
double entry_speedup(const nlohmann::json& entry);

// The key of fast_p in results.json: "1.0", "1.2", ...
std::string fast_p_key(double p);

}  // namespace ascendopt
