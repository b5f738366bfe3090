#ifndef EXP_CUSTOM_TILING_H
#define EXP_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ExpCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, formerNum);      // cores that process formerLength elements
TILING_DATA_FIELD_DEF(uint32_t, formerLength);
TILING_DATA_FIELD_DEF(uint32_t, tailLength);     // elements of each remaining core
TILING_DATA_FIELD_DEF(uint32_t, tileLength);
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ExpCustom, ExpCustomTilingData)
}  // namespace optiling
#endif
