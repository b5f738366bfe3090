#ifndef CLIP_CUSTOM_TILING_H
#define CLIP_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ClipCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint32_t, blockLength);
TILING_DATA_FIELD_DEF(uint32_t, tileLength);
TILING_DATA_FIELD_DEF(float, lower);
TILING_DATA_FIELD_DEF(float, upper);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ClipCustom, ClipCustomTilingData)
}  // namespace optiling
#endif
