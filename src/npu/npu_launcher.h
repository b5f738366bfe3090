// --backend npu: the cases of each launch run on an Ascend NPU through the user's CANN toolkit
// (docs/npu.md). The candidate's operator package and invoker are built with the toolchain
// interface (cann_package.h), the invoker runs every case on one of the devices (a checked run
// with poisoned outputs, then warm-up and timed repeats between device events), and each case's
// result document is written from what the invoker reports: the judge then compares outputs and
// takes the timed samples exactly as it does for the twin.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "eval/device_launch.h"
#include "npu/cann_install.h"

namespace ascendopt {

struct NpuTarget {
    CannInstall cann;
    std::vector<int> devices;  // physical ids; each runs one launch at a time
    std::string soc_version;   // the chip the packages are built for: "Ascend910B2"
    std::filesystem::path share_include;  // ascendopt_invoker.h's folder
    std::filesystem::path package_cache;  // where built packages are kept (cann_package.h)
    int warmup = 5;    // untimed runs after the checked one
    int repeats = 10;  // timed runs: the case's latency samples
    std::function<void(const std::string&)> note;  // progress of long steps (a package build); may be empty
    bool profile = false;  // each passing case also run under msprof op, its per-pipe profile in the result
};

// The launcher EvalOptions::device_launcher takes for --backend npu. Launches from several
// threads share the devices: each waits for a free one.
DeviceLauncher make_npu_launcher(NpuTarget target, EnvLookup env);

}  // namespace ascendopt
