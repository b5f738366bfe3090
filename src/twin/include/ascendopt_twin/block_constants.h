// The data-block constants of the Ascend C kernel library that CANN also makes visible to host
// code through its tiling headers (quant_batch_matmul_v3's tiling names AscendC::BLOCK_CUBE and
// AscendC::ONE_BLK_SIZE). One definition for kernel and host builds, which may include both.
#pragma once

#include <cstdint>

namespace AscendC {
constexpr int32_t ONE_BLK_SIZE = 32;  // bytes in a data block
constexpr int32_t BLOCK_CUBE = 16;    // rows and columns of a cube fractal
}  // namespace AscendC
