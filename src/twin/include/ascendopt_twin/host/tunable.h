// Run-time values of host tiling constants that Stage II tunes. ascendopt rewrites a tunable
// host constant's initializer into tunable_value("NAME", original); the operator binary then
// reads ASCENDOPT_TUNE_<NAME> from its environment, so trying another value needs no rebuild.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <string>

namespace ascendopt_twin::host {

inline int64_t tunable_value(const char* name, int64_t original) {
    const char* v = std::getenv((std::string("ASCENDOPT_TUNE_") + name).c_str());
    return v && *v ? std::strtoll(v, nullptr, 10) : original;
}

}  // namespace ascendopt_twin::host
