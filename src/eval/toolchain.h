// The C++ compiler and twin artifacts used to build operators, and the flags they get.
// Flags live here and only here, because the build cache key and the precompiled header
// must see exactly what the compiler sees.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "util/result.h"

namespace ascendopt {

struct Toolchain {
    std::string cxx;                              // compiler command (ASCENDOPT_CXX, CXX, or g++)
    std::filesystem::path twin_include;           // Ascend C headers of the twin
    std::filesystem::path share_dir;              // golden runner scripts and drivers
    std::filesystem::path src_dir;                // for the C++ golden driver's headers
    std::vector<std::filesystem::path> link_libs; // twin harness + runtime, in link order
    std::string fingerprint;                      // compiler version + hashes of headers and libs

    std::vector<std::string> common_flags() const;  // -std, -O, includes shared by host and kernel
    std::vector<std::string> host_flags() const;
    std::vector<std::string> kernel_flags() const;  // without the per-case -D and -include
    std::vector<std::string> link_flags() const;    // after the objects
};

// Finds the compiler and twin artifacts and computes the fingerprint. Errors name what is
// missing and how to get it.
Result<Toolchain> detect_toolchain();

}  // namespace ascendopt
