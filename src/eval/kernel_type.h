// Which cores a kernel runs on when it declares nothing itself. The compiled kernel's own
// declarations (KERNEL_TASK_TYPE_DEFAULT / KERNEL_TASK_TYPE in the `#if` branches its build
// kept) decide first: the harness reads them from the operator binary (twin
// rt/kernel_type_notes.h). Without one, this inference from the sources does: a kernel that
// calls the cube (the Matmul API, Mmad, LoadData, Fixpipe) and the vector unit is mixed, one AIC
// with two AIVs (mix_aic_1_2); one that calls only the cube runs on AIC cores; anything else on
// vector cores. The evaluator passes it as the job's "kernel_type" (twin_rt.h LaunchOptions).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace ascendopt {

// "aiv", "aic" or "mix_aic_1_2", from `files` (a kernel's translation units and the headers
// they include).
std::string inferred_kernel_type(const std::vector<std::filesystem::path>& files);

}  // namespace ascendopt
