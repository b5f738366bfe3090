// The Matmul high-level API as kernels include it. Everything lives in AscendC
// (ascendopt_twin/kernel/matmul_config.h, matmul.h); namespace matmul re-exports it, and, as
// operators that write `using namespace matmul;` and then name DataCopyParams or GetBlockIdx
// unqualified rely on, brings AscendC along.
#pragma once

#include "kernel_operator.h"
#include "ascendopt_twin/kernel/matmul_config.h"
#include "ascendopt_twin/kernel/matmul.h"

namespace AscendC {
// Bytes of one C0 block (the 32-byte unit of DataCopy and the cube's fractal rows).
constexpr int32_t DEFAULT_C0_SIZE = 32;
}  // namespace AscendC

namespace matmul {
using namespace AscendC;
}  // namespace matmul
