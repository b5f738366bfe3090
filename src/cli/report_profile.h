// Terminal rendering of a case's profile (eval/profile.h makes the summary).
#pragma once

#include <string>

#include "eval/profile.h"

namespace ascendopt {

std::string render_profile(const std::string& op, const nlohmann::json& summary);

}  // namespace ascendopt
