// The kernel side's tiling structures. The CANN build generates this header from the op_host
// tiling declarations; the twin's build includes those declarations in every kernel build
// already (docs/twin.md, "How an operator runs"), so there is nothing more to declare here.
#pragma once

// TCubeTiling, which kernels name without any tiling header of their own.
#include "ascendopt_twin/kernel/matmul_cube_tiling.h"
