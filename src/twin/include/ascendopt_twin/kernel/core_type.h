// Which kind of core runs the kernel (AIC: cube, AIV: vector) and where it sits in a mixed
// launch: g_coreType, ASCEND_IS_AIC / ASCEND_IS_AIV, GetSubBlockIdx, GetSubBlockNum,
// GetTaskRatio. The device compiles a mixed kernel once per core kind and g_coreType is a
// constant there; the twin runs one build on both kinds, so g_coreType reads the current core
// (runtime.h) and `if ASCEND_IS_AIV { ... }` is an ordinary branch.
#pragma once

#include "ascendopt_twin/attrs.h"

#include "ascendopt_twin/kernel/defs.h"
#include "ascendopt_twin/runtime.h"

namespace AscendC {

// The values CANN's CPU build gives g_coreType (AIC 1, AIV 2); MIX names a kernel of both.
constexpr int32_t MIX = 0;
constexpr int32_t AIC = 1;
constexpr int32_t AIV = 2;

}  // namespace AscendC

namespace ascendopt_twin::detail {

// g_coreType: reads as AscendC::AIC or AscendC::AIV on the calling core.
struct CurrentCoreType {
    ASCENDOPT_TWIN_FN operator int32_t() const { return core_kind() == CoreKind::aic ? AscendC::AIC : AscendC::AIV; }
};

}  // namespace ascendopt_twin::detail

inline constexpr ascendopt_twin::detail::CurrentCoreType g_coreType{};

#define ASCEND_IS_AIV (int32_t(::g_coreType) == ::AscendC::AIV)
#define ASCEND_IS_AIC (int32_t(::g_coreType) == ::AscendC::AIC)
#define ASCEND_IS_NOT_AIV (int32_t(::g_coreType) != ::AscendC::AIV)
#define ASCEND_IS_NOT_AIC (int32_t(::g_coreType) != ::AscendC::AIC)

namespace AscendC {

using ::g_coreType;

// GetSubBlockIdx / GetTaskRation live in misc.h (they predate the cube twin) and read the
// same runtime state.
ASCENDOPT_TWIN_FN inline int64_t GetSubBlockNum() { return ascendopt_twin::sub_block_num(); }
ASCENDOPT_TWIN_FN inline int64_t GetTaskRatio() { return ascendopt_twin::task_ratio(); }

}  // namespace AscendC
