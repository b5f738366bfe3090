// Tiling helper APIs. The twin provides the tiling data machinery; the advanced-API tiling
// helpers (Matmul, SoftMax, ...) are not part of the twin yet.
#pragma once

#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"
#include "ascendopt_twin/host/math_tiling.h"
#include "ascendopt_twin/host/adv_tiling.h"
