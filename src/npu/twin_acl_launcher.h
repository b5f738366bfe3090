// --backend twin-acl: the npu backend's pipeline with the twin standing in for CANN and the
// device (docs/npu.md "The twin behind aclnn"). Each launch of planned cases builds the
// operator's aclnn package for the twin (its generated entries) and its invoker with the
// toolchain interface's command lines against the twin toolkit, runs every case through the
// invoker, and serves the twin aclnn's launch requests by running the case's kernel in the
// operator binary as the twin backend does. Results and outputs land where the twin backend's
// would, so the verdicts are judged the same way.
#pragma once

#include <filesystem>

#include "eval/device_launch.h"

namespace ascendopt {

// Where the twin toolkit of this build is (eval/build_config.h).
struct TwinToolkit {
    std::filesystem::path root;           // build/twin-cann: lib64/libascendcl.so, lib64/libnnopbase.so
    std::filesystem::path include;        // the twin's headers: acl/, aclnn/, ascendopt_twin/
    std::filesystem::path share_include;  // ascendopt_invoker.h
    std::filesystem::path aclnn_library;  // libascendopt_twin_aclnn.a
};
TwinToolkit this_builds_twin_toolkit();

// The launcher EvalOptions::device_launcher takes for --backend twin-acl.
DeviceLauncher make_twin_acl_launcher(TwinToolkit toolkit);

}  // namespace ascendopt
