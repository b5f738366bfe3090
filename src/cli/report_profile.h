// The profile of one case: simulated latency, per-pipe busy time and utilization across cores,
// bytes moved, instruction counts by kind, and the bound (which pipe limits the kernel).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/eval_result.h"

namespace ascendopt {

// Summarizes the twin's timing report of a passing case (CaseResult::twin).
nlohmann::json profile_summary(const CaseResult& c);
std::string render_profile(const std::string& op, const nlohmann::json& summary);

}  // namespace ascendopt
