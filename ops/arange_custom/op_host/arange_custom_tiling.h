#ifndef ARANGE_CUSTOM_TILING_H
#define ARANGE_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ArangeCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint32_t, blockLength);
TILING_DATA_FIELD_DEF(uint32_t, tileLength);
TILING_DATA_FIELD_DEF(float, start);
TILING_DATA_FIELD_DEF(float, step);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ArangeCustom, ArangeCustomTilingData)
}  // namespace optiling
#endif
