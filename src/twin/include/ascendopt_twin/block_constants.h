// The data-block constants of the Ascend C kernel library that CANN also makes visible to host
// code through its tiling headers (quant_batch_matmul_v3's tiling names AscendC::BLOCK_CUBE and
// AscendC::ONE_BLK_SIZE). One definition for kernel and host builds, which may include both.
#pragma once

#include <cstdint>

// Kernel code has them as int32_t, host code as uint32_t (as CANN declares each side's).
namespace AscendC {
#ifdef ASCENDOPT_TWIN_KERNEL
using BlockConstant = int32_t;
#else
using BlockConstant = uint32_t;
#endif
constexpr BlockConstant ONE_BLK_SIZE = 32;  // bytes in a data block
constexpr BlockConstant BLOCK_CUBE = 16;    // rows and columns of a cube fractal
}  // namespace AscendC
