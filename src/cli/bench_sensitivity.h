// `bench --sensitivity`: after the study, each job's published and final programs re-timed
// across the SoC parameters' ranges (study/sensitivity.h); writes <out>/sensitivity.json and
// prints each method's operators as median [min, max] with GM, robust GM and GM without the
// largest contributor.
#pragma once

#include <filesystem>

#include "cli/session.h"
#include "study/study.h"

namespace ascendopt {

struct SensitivityRequest {
    std::filesystem::path out;
    int samples = 8;
    uint64_t seed = 0;
    bool several_seeds = false;
    int parallel = 1;  // programs re-timed at once
    bool quiet = false;
    bool print_table = true;  // false under --json: stdout holds results.json
};

// An exit code: ok, or the error printed.
int run_bench_sensitivity(const SensitivityRequest& request, const std::vector<StudyTarget>& targets, const StudyOutcome& study,
                          EvalSession& session);

}  // namespace ascendopt
