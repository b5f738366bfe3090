#include "acl_state.h"

#include <cstdlib>
#include <string_view>

namespace ascendopt_twin::acl {
namespace {

// A whole decimal number in [low, high] from the environment variable `name`; `fallback` when
// it is unset.
bool env_number(const char* name, uint64_t low, uint64_t high, uint64_t fallback, uint64_t& out, std::string& why) {
    const char* text = std::getenv(name);
    if (!text || !*text) {
        out = fallback;
        return true;
    }
    char* end = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(text, &end, 10);
    if (errno != 0 || *end != '\0' || std::string_view(text).find('-') != std::string_view::npos || v < low || v > high) {
        why = std::string(name) + "='" + text + "' is not a whole number from " + std::to_string(low) + " to " + std::to_string(high);
        return false;
    }
    out = v;
    return true;
}

}  // namespace

State& state() {
    static State s;
    return s;
}

int& current_device() {
    thread_local int device = -1;
    return device;
}

std::string& recent_error() {
    thread_local std::string message;
    return message;
}

aclError fail(aclError code, const std::string& message) {
    recent_error() = message;
    return code;
}

bool read_settings(Settings& out, std::string& why) {
    uint64_t devices = 0, memory = 0;
    if (!env_number("ASCENDOPT_TWIN_ACL_DEVICES", 1, 64, uint64_t(out.devices), devices, why)) return false;
    if (!env_number("ASCENDOPT_TWIN_ACL_MEMORY", 4096, uint64_t(1) << 46, out.memory_bytes, memory, why)) return false;
    out.devices = int(devices);
    out.memory_bytes = memory;
    if (const char* soc = std::getenv("ASCENDOPT_TWIN_SOC"); soc && *soc) out.soc_name = soc;
    return true;
}

}  // namespace ascendopt_twin::acl
