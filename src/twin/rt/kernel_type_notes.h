// The cores a kernel asks for, as compiled: KERNEL_TASK_TYPE_DEFAULT(t) and
// KERNEL_TASK_TYPE(key, t) in the twin (kernel/defs.h) leave a note in the section
// ascendopt_kernel_types of the code the preprocessor kept, so a declaration inside an
// `#if ORIG_DTYPE_Y == DT_BF16` branch counts only in the builds that take that branch. The
// evaluator's textual scan (eval/kernel_type.h) sees every branch; the harness prefers these.
#pragma once

#include <cstdint>
#include <string>

namespace ascendopt_twin {

// The launch kind ("aiv", "aic", "mix_aic_1_1", ...) the compiled kernel declares for
// `tiling_key`: its KERNEL_TASK_TYPE for that key, else its KERNEL_TASK_TYPE_DEFAULT. Empty
// when it declares neither; `declared_any` says whether it declares anything at all (then the
// evaluator's per-key list, which may come from branches the build left out, is not used).
std::string compiled_kernel_type(uint64_t tiling_key, bool& declared_any);

}  // namespace ascendopt_twin
