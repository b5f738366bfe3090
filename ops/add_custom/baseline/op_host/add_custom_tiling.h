#ifndef ADD_CUSTOM_TILING_H
#define ADD_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AddCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);      // cores that take one extra 32-byte block
TILING_DATA_FIELD_DEF(uint32_t, blocksPerCore);   // 32-byte blocks per small core
TILING_DATA_FIELD_DEF(uint32_t, tileLength);      // elements per tile (multiple of a block)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);     // elements in all
TILING_DATA_FIELD_DEF(uint32_t, elemsPerBlock);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AddCustom, AddCustomTilingData)
}  // namespace optiling
#endif
