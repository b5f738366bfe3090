#ifndef REPLICATED_COPY_TILING_H
#define REPLICATED_COPY_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ReplicatedCopyTilingData)
TILING_DATA_FIELD_DEF(uint32_t, tileLength);  // elements per tile, a multiple of 8
TILING_DATA_FIELD_DEF(uint32_t, tiles);       // whole tiles
TILING_DATA_FIELD_DEF(uint32_t, rest);        // elements after them, rounded up to 8
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ReplicatedCopy, ReplicatedCopyTilingData)
}  // namespace optiling
#endif
