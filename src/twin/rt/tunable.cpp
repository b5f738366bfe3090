#include "ascendopt_twin/host/tunable.h"

#include <cstdlib>
#include <string>

namespace ascendopt_twin::host {

int64_t tunable_value(const char* name, int64_t original) {
    const char* v = std::getenv((std::string("ASCENDOPT_TUNE_") + name).c_str());
    return v && *v ? std::strtoll(v, nullptr, 10) : original;
}

}  // namespace ascendopt_twin::host
