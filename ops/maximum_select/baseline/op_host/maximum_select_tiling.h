#ifndef MAXIMUM_SELECT_TILING_H
#define MAXIMUM_SELECT_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MaximumSelectTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint32_t, blockLength);  // per core, whole 256-byte repeats
TILING_DATA_FIELD_DEF(uint32_t, tileLength);   // whole 256-byte repeats
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MaximumSelect, MaximumSelectTilingData)
}  // namespace optiling
#endif
