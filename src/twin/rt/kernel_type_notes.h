// The cores a kernel asks for, as compiled: KERNEL_TASK_TYPE_DEFAULT(t) and
// KERNEL_TASK_TYPE(key, t) in the twin (kernel/defs.h) leave a note in the section
// ascendopt_kernel_types of the code the preprocessor kept, so a declaration inside an
// `#if ORIG_DTYPE_Y == DT_BF16` branch counts only in the builds that take that branch.
#pragma once

#include <cstdint>
#include <string>

namespace ascendopt_twin {

// The launch kind ("aiv", "aic", "mix_aic_1_1", ...) the compiled kernel declares for
// `tiling_key`: its KERNEL_TASK_TYPE for that key, else its KERNEL_TASK_TYPE_DEFAULT; empty
// when it declares neither.
std::string compiled_kernel_type(uint64_t tiling_key);

}  // namespace ascendopt_twin
