// TCubeTiling: the Matmul tiling both sides share. The host fills it (matmul_tiling::
// MultiCoreMatmulTiling::GetTiling, or set_<field> on a field of its tiling data declared with
// TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, ...)), SaveToBuffer copies it byte for byte, and the
// kernel reads it as TCubeTiling (global, optiling:: or AscendC::tiling::) and hands it to a
// Matmul object (REGIST_MATMUL_OBJ, Init). Fields: the documented names ("TCubeTiling结构体"),
// all int32, in the documented order; the twin's Matmul reads the shape fields (M, N, Ka, Kb,
// singleCore*, base*), isBias and iterateOrder, the rest are carried for the kernel's own use.
#pragma once

#include "ascendopt_twin/attrs.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "ascendopt_twin/runtime.h"

namespace optiling {

struct TCubeTiling {
#define ASCENDOPT_CUBE_FIELD(name)                                \
    int32_t name = 0;                                             \
    ASCENDOPT_TWIN_FN void set_##name(int32_t v) { name = v; }   \
    ASCENDOPT_TWIN_FN int32_t get_##name() const { return name; }
    ASCENDOPT_CUBE_FIELD(usedCoreNum)
    ASCENDOPT_CUBE_FIELD(M)
    ASCENDOPT_CUBE_FIELD(N)
    ASCENDOPT_CUBE_FIELD(Ka)
    ASCENDOPT_CUBE_FIELD(Kb)
    ASCENDOPT_CUBE_FIELD(singleCoreM)
    ASCENDOPT_CUBE_FIELD(singleCoreN)
    ASCENDOPT_CUBE_FIELD(singleCoreK)
    ASCENDOPT_CUBE_FIELD(baseM)
    ASCENDOPT_CUBE_FIELD(baseN)
    ASCENDOPT_CUBE_FIELD(baseK)
    ASCENDOPT_CUBE_FIELD(depthA1)
    ASCENDOPT_CUBE_FIELD(depthB1)
    ASCENDOPT_CUBE_FIELD(stepM)
    ASCENDOPT_CUBE_FIELD(stepN)
    ASCENDOPT_CUBE_FIELD(isBias)
    ASCENDOPT_CUBE_FIELD(transLength)
    ASCENDOPT_CUBE_FIELD(iterateOrder)
    ASCENDOPT_CUBE_FIELD(shareMode)
    ASCENDOPT_CUBE_FIELD(shareL1Size)
    ASCENDOPT_CUBE_FIELD(shareL0CSize)
    ASCENDOPT_CUBE_FIELD(shareUbSize)
    ASCENDOPT_CUBE_FIELD(batchM)
    ASCENDOPT_CUBE_FIELD(batchN)
    ASCENDOPT_CUBE_FIELD(singleBatchM)
    ASCENDOPT_CUBE_FIELD(singleBatchN)
    ASCENDOPT_CUBE_FIELD(stepKa)
    ASCENDOPT_CUBE_FIELD(stepKb)
    ASCENDOPT_CUBE_FIELD(depthAL1CacheUB)
    ASCENDOPT_CUBE_FIELD(depthBL1CacheUB)
    ASCENDOPT_CUBE_FIELD(dbL0A)
    ASCENDOPT_CUBE_FIELD(dbL0B)
    ASCENDOPT_CUBE_FIELD(dbL0C)
    ASCENDOPT_CUBE_FIELD(ALayoutInfoB)
    ASCENDOPT_CUBE_FIELD(ALayoutInfoS)
    ASCENDOPT_CUBE_FIELD(ALayoutInfoN)
    ASCENDOPT_CUBE_FIELD(ALayoutInfoG)
    ASCENDOPT_CUBE_FIELD(ALayoutInfoD)
    ASCENDOPT_CUBE_FIELD(BLayoutInfoB)
    ASCENDOPT_CUBE_FIELD(BLayoutInfoS)
    ASCENDOPT_CUBE_FIELD(BLayoutInfoN)
    ASCENDOPT_CUBE_FIELD(BLayoutInfoG)
    ASCENDOPT_CUBE_FIELD(BLayoutInfoD)
    ASCENDOPT_CUBE_FIELD(CLayoutInfoB)
    ASCENDOPT_CUBE_FIELD(CLayoutInfoS1)
    ASCENDOPT_CUBE_FIELD(CLayoutInfoN)
    ASCENDOPT_CUBE_FIELD(CLayoutInfoG)
    ASCENDOPT_CUBE_FIELD(CLayoutInfoS2)
    ASCENDOPT_CUBE_FIELD(BatchNum)
    ASCENDOPT_CUBE_FIELD(mxTypePara)
#undef ASCENDOPT_CUBE_FIELD

    ASCENDOPT_TWIN_FN void SaveToBuffer(void* buffer, size_t capacity) const {
        if (capacity < sizeof(*this))
            ::ascendopt_twin::fail(::ascendopt_twin::ErrorKind::run_failed, "TCubeTiling::SaveToBuffer",
                                   "the buffer holds " + std::to_string(capacity) + " bytes, the tiling needs " + std::to_string(sizeof(*this)));
        ascendopt_twin::raw_copy(buffer, this, sizeof(*this));
    }
    ASCENDOPT_TWIN_FN size_t GetDataSize() const { return sizeof(*this); }
};
static_assert(sizeof(TCubeTiling) == 50 * sizeof(int32_t), "TCubeTiling is 50 plain int32 fields");

}  // namespace optiling

// Kernels name it unqualified (CANN generates the kernel-side struct at global scope).
using optiling::TCubeTiling;

namespace AscendC {
using ::optiling::TCubeTiling;
namespace tiling {
using ::optiling::TCubeTiling;
}
}  // namespace AscendC
