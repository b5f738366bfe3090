// What an operator's CMakeLists.txt declares about its build, read the way the cann-ops tree
// builds it: the host sources of the tiling, proto and OpDef libraries (target_sources of
// optiling, opsproto, op_host_aclnn, op_host_aclnnInner, op_host_aclnnExclude; never opapi, the
// aclnn API the twin does not need), their include directories, and the kernel compile options
// (add_ops_compile_options ... OPTIONS -I... -D...).
//
// It is a reader of the declarative subset operator CMakeLists.txt files use (set, list(APPEND),
// file(GLOB[_RECURSE]), target_sources, target_include_directories, target_link_libraries,
// add_ops_compile_options; if/else bodies are all taken), not a CMake interpreter. Paths under
// ${ASCEND_CANN_PACKAGE_PATH} name CANN's own headers, which the twin provides, and are dropped.
// ${CMAKE_SOURCE_DIR} is the checkout (the folder holding src/), ${OP_COMMON_DIR} its
// src/common, as the cann-ops top-level CMakeLists.txt sets them.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "util/result.h"

namespace ascendopt {

struct OpCmakePlan {
    std::vector<std::filesystem::path> host_sources;       // absolute, in declaration order, no duplicates
    std::vector<std::filesystem::path> host_include_dirs;  // absolute, existing folders
    std::vector<std::filesystem::path> kernel_include_dirs;
    std::vector<std::string> kernel_defines;  // NAME or NAME=VALUE from -D options
    std::vector<std::string> host_defines;    // NAME=VALUE every host file of the checkout's build gets
    std::vector<std::string> notes;           // what was left out and why (unknown variables, missing files)
};

// The definitions the checkout's shared logging headers need (src/common/CMakeLists.txt attaches
// them to its interface libraries, which the cann-ops build links into every host library).
std::vector<std::string> checkout_host_defines();

// The plan of `op_dir`/CMakeLists.txt, or nullopt when the operator has none or it names no
// host source (then the operator's op_host/*.cpp are its host sources). `checkout` is the
// cann-ops checkout that holds the operator, if any.
Result<std::optional<OpCmakePlan>> read_op_cmake(const std::filesystem::path& op_dir, const std::optional<std::filesystem::path>& checkout);

// The cann-ops checkout that holds `op_dir`: the nearest ancestor A with op_dir under A/src and
// A/src/common a folder (the tree's shared headers), or nullopt.
std::optional<std::filesystem::path> enclosing_checkout(const std::filesystem::path& op_dir);

}  // namespace ascendopt
