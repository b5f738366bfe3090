// A candidate's operator package and invoker, built with the user's CANN toolkit through the
// toolchain interface (docs/npu.md "Building a candidate for the NPU"): the prototype written
// from its OpDef, msopgen's project with the candidate's op_host/ and op_kernel/ files in place
// of the generated templates, the presets pointed at this toolkit, vendor and chip, the
// project's build, the package installed into the candidate's own OPP folder, and the invoker
// compiled against it.
//
// Packages are kept by content (the candidate's files, the prototype, the invoker, the chip and
// the toolkit) under a cache folder, because a package build takes minutes: every later
// evaluation of the same candidate reuses it. One process builds a given package at a time (a
// file lock); a build that died half way is redone from scratch.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "eval/opdef.h"
#include "eval/operator_source.h"
#include "npu/aclnn_signature.h"
#include "npu/cann_toolchain.h"

namespace ascendopt {

struct PackageRequest {
    const OperatorSource* source = nullptr;
    const OpDefInfo* opdef = nullptr;
    const AclnnSignature* signature = nullptr;
    std::string soc_version;  // "Ascend910B2"
    std::vector<std::filesystem::path> invoker_includes;  // besides the toolkit's include/: ascendopt_invoker.h's folder
    std::filesystem::path cache_dir;  // packages live in <cache_dir>/<key>/
    std::function<void(const std::string&)> note;  // told when a build starts (it takes minutes); may be empty
};

struct CannPackage {
    PackageLayout layout;
    std::filesystem::path invoker;
    std::filesystem::path log;  // every command's output, in order
    bool cached = false;
};

// The package and invoker for `request`, built now or found built. An error names the step
// that failed, its command line, the end of its output and the log holding the rest.
Result<CannPackage> cann_package(const CannToolchain& toolchain, const PackageRequest& request);

// The key a package is kept under: what its build reads.
Result<std::string> package_key(const CannToolchain& toolchain, const PackageRequest& request);

}  // namespace ascendopt
