#ifndef WILD_EYE_TILING_H
#define WILD_EYE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(WildEyeTilingData)
TILING_DATA_FIELD_DEF(uint32_t, numRows);
TILING_DATA_FIELD_DEF(uint32_t, numColumns);
TILING_DATA_FIELD_DEF(uint32_t, batches);         // matrices in y
TILING_DATA_FIELD_DEF(uint32_t, batchesPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(WildEye, WildEyeTilingData)
}  // namespace optiling
#endif
