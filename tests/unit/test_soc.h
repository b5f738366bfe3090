// The 910B2 description from share/soc, for tests that run kernels in-process.
#pragma once

#include <stdexcept>

#include "eval/build_config.h"
#include "eval/soc_loader.h"
#include "soc_json.h"

namespace ascendopt_twin::testing {

inline const SocSpec& test_soc(const char* name = "Ascend910B2") {
    static std::map<std::string, SocSpec> loaded;
    auto it = loaded.find(name);
    if (it != loaded.end()) return it->second;
    auto doc = ascendopt::load_soc(name, ASCENDOPT_SHARE_DIR);
    if (!doc) throw std::runtime_error(doc.error().message);
    SocSpec spec;
    std::string error;
    if (!soc_from_json(*doc, spec, error)) throw std::runtime_error(error);
    return loaded.emplace(name, spec).first->second;
}

}  // namespace ascendopt_twin::testing
