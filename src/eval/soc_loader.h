// SoC descriptions: share/soc/<name>.toml, named case-insensitively ("Ascend910B2") or by
// path. The result is the JSON that operator binaries receive in their job.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "util/result.h"

namespace ascendopt {

Result<nlohmann::json> load_soc(const std::string& name_or_path, const std::filesystem::path& share_dir);
std::vector<std::string> known_socs(const std::filesystem::path& share_dir);

}  // namespace ascendopt
