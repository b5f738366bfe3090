// The profile of one case: simulated latency, per-pipe busy time and utilization across cores,
// bytes moved, instruction counts by kind, and the bound (which pipe limits the kernel). Used
// by `ascendopt profile`, by Stage I's diagnosis and as the evidence of experience records.
#pragma once

#include <nlohmann/json.hpp>

#include "core/eval_result.h"

namespace ascendopt {

// Summarizes the twin's timing report of a passing case (CaseResult::twin).
nlohmann::json profile_summary(const CaseResult& c, const std::string& latency_source = "sim");

}  // namespace ascendopt
