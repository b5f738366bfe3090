// Converts parsed TOML to JSON (tables to objects, arrays to arrays, scalars as they are).
#pragma once

#include <toml++/toml.h>

#include <nlohmann/json.hpp>

namespace ascendopt {

nlohmann::json toml_to_json(const toml::node& node);

}  // namespace ascendopt
