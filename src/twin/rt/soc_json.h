// SocSpec from the JSON form of a share/soc/*.toml description.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "ascendopt_twin/soc.h"

namespace ascendopt_twin {

// Fills `out`; on a missing or mistyped field returns false and says which in `error`.
bool soc_from_json(const nlohmann::json& doc, SocSpec& out, std::string& error);

}  // namespace ascendopt_twin
