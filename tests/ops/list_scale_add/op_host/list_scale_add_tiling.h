// Tiling of ListScaleAdd (op_host/list_scale_add.cpp).
#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
constexpr uint32_t MAX_TENSORS = 8;
BEGIN_TILING_DATA_DEF(ListScaleAddTilingData)
TILING_DATA_FIELD_DEF(uint32_t, count);
TILING_DATA_FIELD_DEF(uint32_t, hasBias);
TILING_DATA_FIELD_DEF(float, alpha);
TILING_DATA_FIELD_DEF(float, bias);
TILING_DATA_FIELD_DEF_ARR(uint64_t, MAX_TENSORS, lengths);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ListScaleAdd, ListScaleAddTilingData)
}  // namespace optiling
