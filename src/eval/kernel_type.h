// Which cores a kernel runs on, as the device compiler decides it: KERNEL_TASK_TYPE_DEFAULT(t)
// and KERNEL_TASK_TYPE(tiling key, t) in the kernel's sources say it; without them, a kernel
// that calls the cube (the Matmul API, Mmad, LoadData, Fixpipe) and the vector unit is mixed,
// one AIC with two AIVs (MIX_AIC_1_2), one that calls only the cube runs on AIC cores, and
// anything else on vector cores. The harness launches accordingly (job fields "kernel_type",
// "kernel_types_by_key", "kernel_type_inferred"; twin_rt.h LaunchOptions), except that the
// declarations the compiled kernel kept (twin rt/kernel_type_notes.h) take precedence: this
// scan reads every `#if` branch, so a kernel that kept none gets the inferred type.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace ascendopt {

struct KernelTypes {
    std::string default_type = "aiv";                // "aiv", "aic", "mix_aic_1_1", "mix_aic_1_2", ...
    std::map<uint64_t, std::string> by_tiling_key;   // KERNEL_TASK_TYPE(key, type)
    // From the units the code calls alone, as if it declared nothing: what the harness launches
    // when the compiled kernel kept none of its declarations (all in `#if` branches left out).
    std::string inferred_type = "aiv";
};

// Reads `files` (a kernel's translation units and the headers they include).
KernelTypes kernel_types(const std::vector<std::filesystem::path>& files);

// "aiv" for KERNEL_TYPE_AIV_ONLY, "mix_aic_1_2" for KERNEL_TYPE_MIX_AIC_1_2, ...; "" if unknown.
std::string kernel_type_name(const std::string& ascendc_name);

}  // namespace ascendopt
