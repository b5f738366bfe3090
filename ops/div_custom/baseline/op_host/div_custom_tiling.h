#ifndef DIV_CUSTOM_TILING_H
#define DIV_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DivCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint32_t, blockLength);  // elements per core (multiple of 32 bytes)
TILING_DATA_FIELD_DEF(uint32_t, tileNum);      // full tiles per core
TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DivCustom, DivCustomTilingData)
}  // namespace optiling
#endif
