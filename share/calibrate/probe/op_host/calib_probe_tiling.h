#ifndef CALIB_PROBE_TILING_H
#define CALIB_PROBE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(CalibProbeTilingData)
TILING_DATA_FIELD_DEF(uint32_t, mode);
TILING_DATA_FIELD_DEF(uint32_t, perBlock);    // elements of x (and y) each block works on
TILING_DATA_FIELD_DEF(uint32_t, iterations);  // loop trips of the non-copy modes
TILING_DATA_FIELD_DEF(uint32_t, tileBytes);   // bytes of one DataCopy, or of the vector operand
TILING_DATA_FIELD_DEF(uint32_t, bursts);      // bursts per DataCopy
TILING_DATA_FIELD_DEF(uint32_t, buffers);     // depth of the queue
TILING_DATA_FIELD_DEF(uint32_t, repeats);     // repeats of each vector instruction
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(CalibProbe, CalibProbeTilingData)
}  // namespace optiling
#endif
