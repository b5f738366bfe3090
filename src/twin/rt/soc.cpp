// Built-in SoC descriptions (memory sizes and core counts from public CANN documentation).
#include <algorithm>
#include <cctype>

#include "ascendopt_twin/soc.h"

namespace ascendopt_twin {
namespace {

const SocSpec k_socs[] = {
    // 910B2: 24 AI Cores, each with 2 vector cores (AIV) and 1 cube core (AIC).
    {"Ascend910B2", "ascend910b", 1, 48, 24, 196608, 524288, 65536, 65536, 131072, 192ull << 20, 64ull << 30},
    {"Ascend310P3", "ascend310p", 2, 8, 8, 262144, 1048576, 65536, 65536, 262144, 0, 24ull << 30},
};

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

}  // namespace

const SocSpec* find_soc(const std::string& name) {
    const std::string n = lower(name);
    for (const auto& s : k_socs)
        if (lower(s.name) == n || s.short_name == n) return &s;
    return nullptr;
}

std::string known_socs() {
    std::string out;
    for (const auto& s : k_socs) out += (out.empty() ? "" : ", ") + s.name;
    return out;
}

}  // namespace ascendopt_twin
