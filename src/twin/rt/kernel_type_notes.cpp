#include "kernel_type_notes.h"

#include <cctype>
#include <cstring>
#include <string_view>

// The linker's bounds of the notes section; absent (null) when the kernel declares nothing.
extern "C" {
extern const char __start_ascendopt_kernel_types[] __attribute__((weak));
extern const char __stop_ascendopt_kernel_types[] __attribute__((weak));
}

namespace ascendopt_twin {
namespace {

// "KERNEL_TYPE_MIX_AIC_1_1" -> "mix_aic_1_1"; the AIV-only forms -> "aiv"; "" if unknown.
std::string launch_name(std::string_view ascendc) {
    constexpr std::string_view prefix = "KERNEL_TYPE_";
    if (!ascendc.starts_with(prefix)) return "";
    ascendc.remove_prefix(prefix.size());
    if (ascendc == "AIV_ONLY" || ascendc == "MIX_VECTOR_CORE") return "aiv";
    if (ascendc == "AIC_ONLY") return "aic";
    if (ascendc != "MIX_AIC_1_0" && ascendc != "MIX_AIV_1_0" && ascendc != "MIX_AIC_1_1" && ascendc != "MIX_AIC_1_2") return "";
    std::string out(ascendc);
    for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// A note's key: "default" or a decimal tiling key with an optional integer suffix (10UL).
bool key_matches(std::string_view key, uint64_t tiling_key) {
    uint64_t v = 0;
    size_t i = 0;
    for (; i < key.size() && std::isdigit(static_cast<unsigned char>(key[i])); ++i) v = v * 10 + uint64_t(key[i] - '0');
    if (i == 0) return false;
    for (; i < key.size(); ++i)
        if (!std::strchr("uUlL", key[i])) return false;
    return v == tiling_key;
}

}  // namespace

std::string compiled_kernel_type(uint64_t tiling_key) {
    const char* p = __start_ascendopt_kernel_types;
    const char* end = __stop_ascendopt_kernel_types;
    if (!p || !end || end <= p) return "";
    std::string by_default, by_key;
    // Notes are NUL-terminated "KEY TYPE" strings (one per declaration the compiler emitted).
    while (p < end) {
        const std::string_view note(p, strnlen(p, size_t(end - p)));
        p += note.size() + 1;
        const size_t space = note.find(' ');
        if (space == std::string_view::npos) continue;
        const std::string type = launch_name(note.substr(space + 1));
        if (type.empty()) continue;
        const std::string_view key = note.substr(0, space);
        if (key == "default") by_default = type;
        else if (key_matches(key, tiling_key)) by_key = type;
    }
    return by_key.empty() ? by_default : by_key;
}

}  // namespace ascendopt_twin
