// The operators of a study suite. Each operator folder (op_host/ and op_kernel/, or a folder
// holding an ascendopt.toml that names the sources elsewhere, as suite/cann-ops-level1 does) is one target:
// its baseline/ folder when it holds one (the strong version is what rewind mines), else the
// folder itself. Operator folders are SUITE/OP, or SUITE/CATEGORY/OP as in a cann-ops checkout
// (`ascendopt bench cann-ops/src`), where the category is the level. Levels group operators in
// the tables; an optional SUITE/suite.toml sets them instead:
//     [levels]
//     elementwise = ["add_custom", "exp_custom"]
//     reduction = ["reduce_sum_custom"]
// Operators it does not list are level "other". Without the file, SUITE/OP is level "all" and
// SUITE/CATEGORY/OP is level CATEGORY. Two operators of one name are an error (results are
// filed by operator name).
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
