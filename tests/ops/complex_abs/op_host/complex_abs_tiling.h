#ifndef COMPLEX_ABS_TILING_H
#define COMPLEX_ABS_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ComplexAbsTilingData)
TILING_DATA_FIELD_DEF(uint32_t, total);      // complex elements
TILING_DATA_FIELD_DEF(uint32_t, perCore);    // complex elements per core (the last takes the rest)
TILING_DATA_FIELD_DEF(float, scale);         // the value of the scale input
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ComplexAbs, ComplexAbsTilingData)
}  // namespace optiling
#endif
