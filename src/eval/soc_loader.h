// SoC descriptions: share/soc/<name>.toml, named case-insensitively ("Ascend910B2") or by
// path. The result is the JSON that operator binaries receive in their job. A file is refused
// unless every value has its provenance (eval/soc_params.h); the job gets the values only.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "eval/soc_params.h"
#include "util/result.h"

namespace ascendopt {

Result<nlohmann::json> load_soc(const std::string& name_or_path, const std::filesystem::path& share_dir);
struct SocWithParameters {
    nlohmann::json doc;  // as load_soc gives it
    std::vector<SocParameter> parameters;
    nlohmann::json provenance;  // the file's [provenance] table, as written (to write a SoC file back)
};
Result<SocWithParameters> load_soc_parameters(const std::string& name_or_path, const std::filesystem::path& share_dir);
std::vector<std::string> known_socs(const std::filesystem::path& share_dir);

}  // namespace ascendopt
