// Tiling helper APIs: the tiling data machinery and the advanced APIs' host helpers (SoftMax
// and the rest in adv_tiling.h, Matmul in matmul_tiling.h).
#pragma once

#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"
#include "ascendopt_twin/host/math_tiling.h"
#include "ascendopt_twin/host/adv_tiling.h"
#include "ascendopt_twin/host/matmul_tiling.h"

// The kernel library's block constants, which CANN's tiling API makes visible to host code
// (quant_batch_matmul_v3's tiling names AscendC::BLOCK_CUBE and AscendC::ONE_BLK_SIZE). Kernel
// builds have them from the kernel headers.
#ifndef ASCENDOPT_TWIN_KERNEL
namespace AscendC {
constexpr uint32_t BLOCK_CUBE = 16;
constexpr uint32_t ONE_BLK_SIZE = 32;
}  // namespace AscendC
#endif
