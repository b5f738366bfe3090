#ifndef SQRT_CUSTOM_TILING_H
#define SQRT_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SqrtCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint32_t, perCoreLength);  // elements per core, a multiple of 256 bytes
TILING_DATA_FIELD_DEF(uint32_t, tileLength);     // elements per tile, a multiple of 256 bytes
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SqrtCustom, SqrtCustomTilingData)
}  // namespace optiling
#endif
