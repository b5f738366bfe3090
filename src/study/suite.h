// The operators of a study suite. Each operator folder (op_host/ and op_kernel/) is one target:
// its baseline/ folder when it holds one (the strong version is what rewind mines), else the
// folder itself. Levels group operators in the tables; they come from an optional
// SUITE/suite.toml:
//     [levels]
//     elementwise = ["add_custom", "exp_custom"]
//     reduction = ["reduce_sum_custom"]
// Operators it does not list are level "other"; without the file every operator is "all".
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "util/result.h"

namespace ascendopt {

struct StudyTarget {
    std::filesystem::path dir;  // the implementation to speed up
    std::string op;             // the operator folder's name (also for a baseline/ target)
    std::string level;
};

// Targets in name order. A suite.toml that does not parse, or that names a folder the suite
// lacks, is an error that says which.
Result<std::vector<StudyTarget>> study_targets(const std::filesystem::path& suite);

}  // namespace ascendopt
