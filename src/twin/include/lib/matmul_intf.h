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

// The quotient rounded up, which the batch matmul kernels call unqualified. Only with the Matmul
// headers, and for one operand type: kernels that define their own two-type CeilDiv
// (pad_v3_grad_replicate) must keep resolving to theirs.
template <class T>
ASCENDOPT_TWIN_FN constexpr T CeilDiv(T a, T b) {
    return DivCeil(a, b);
}
}  // namespace AscendC

namespace matmul {
using namespace AscendC;
}  // namespace matmul

// The configuration type and its builders are named unqualified at global scope by kernels that
// write no `using namespace` (quant_batch_matmul_v3), as CANN's matmul headers allow; so are the
// predefined configurations (weight_quant_batch_matmul_v2 names CFG_MDL in its own namespace).
// Kernels that declare a CFG_* of their own do it as class members, which hide these.
using AscendC::CFG_IBSHARE_NORM;
using AscendC::CFG_MDL;
using AscendC::CFG_NORM;
using AscendC::GetBasicConfig;
using AscendC::GetIBShareNormConfig;
using AscendC::GetMDLConfig;
using AscendC::GetMMConfig;
using AscendC::GetNormalConfig;
using AscendC::GetSpecialMDLConfig;
using AscendC::MatmulBatchParams;
using AscendC::MatmulConfig;
using AscendC::MatmulConfigMode;
using AscendC::MatmulFuncParams;
using AscendC::MatmulQuantParams;
using AscendC::MatmulShapeParams;
using AscendC::BatchMode;
using AscendC::BatchOutMode;
using AscendC::CubeFormat;
using AscendC::GetMatmulApiTiling;
using AscendC::IterateMode;
using AscendC::IterateOrder;
using AscendC::LayoutMode;
using AscendC::MatmulApiStaticTiling;
using AscendC::MatmulCallBackFunc;
using AscendC::MatmulType;
using AscendC::ScheduleType;
