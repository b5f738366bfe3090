// Text and JSON forms of an `ascendopt check` run: the compatibility table, the missing APIs
// ranked by how many operators each blocks, and the summary line.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "eval/tree_check.h"

namespace ascendopt {

// "N of M operators build, K pass"
std::string check_summary_line(const std::vector<OperatorCheck>& checks);

// One progress line: "math/cos: builds, 33/33 cases pass (12.3 s)".
std::string check_progress_line(const OperatorCheck& c);

// `details`: the full failure (compiler output, verdict and log) under the table, per operator.
std::string render_check(const std::string& tree, const std::vector<OperatorCheck>& checks, bool details = false);

nlohmann::json check_json(const std::string& tree, const std::vector<OperatorCheck>& checks, bool finished);

}  // namespace ascendopt
