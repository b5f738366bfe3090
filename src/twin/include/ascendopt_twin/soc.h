// What the twin knows of one Ascend SoC: core counts and on-chip memory sizes. The timing
// parameters of the model live with the timing model, not here.
#pragma once

#include <cstdint>
#include <string>

namespace ascendopt_twin {

struct SocSpec {
    std::string name;        // e.g. "Ascend910B2"
    std::string short_name;  // e.g. "ascend910b", as OpDef AddConfig names it
    int family = 0;          // platform_ascendc::SocVersion value
    uint32_t vector_cores = 0;
    uint32_t cube_cores = 0;
    uint64_t ub_bytes = 0;
    uint64_t l1_bytes = 0;
    uint64_t l0a_bytes = 0;
    uint64_t l0b_bytes = 0;
    uint64_t l0c_bytes = 0;
    uint64_t l2_bytes = 0;
    uint64_t hbm_bytes = 0;
};

// The built-in description named `name` (case-insensitive), or null.
const SocSpec* find_soc(const std::string& name);

// Names accepted by find_soc, comma-separated, for error messages.
std::string known_socs();

}  // namespace ascendopt_twin
