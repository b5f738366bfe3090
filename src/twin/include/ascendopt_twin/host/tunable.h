// Run-time values of host tiling constants that Stage II tunes. ascendopt rewrites a tunable
// host constant's initializer into tunable_value("NAME", original); the operator binary then
// reads ASCENDOPT_TUNE_<NAME> from its environment, so trying another value needs no rebuild.
// The reading is the runtime's (rt/tunable.cpp): operator code itself may not read the
// environment (docs/sandbox.md, the object gate).
#pragma once

#include <cstdint>

namespace ascendopt_twin::host {

int64_t tunable_value(const char* name, int64_t original);

}  // namespace ascendopt_twin::host
