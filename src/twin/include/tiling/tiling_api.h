// Tiling helper APIs: the tiling data machinery and the advanced APIs' host helpers (SoftMax
// and the rest in adv_tiling.h, Matmul in matmul_tiling.h).
#pragma once

#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"
#include "ascendopt_twin/host/math_tiling.h"
#include "ascendopt_twin/host/adv_tiling.h"
#include "ascendopt_twin/host/matmul_tiling.h"
#include "ascendopt_twin/block_constants.h"

