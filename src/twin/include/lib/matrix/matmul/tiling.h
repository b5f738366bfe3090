// The kernel-side Matmul tiling struct under the path some kernels include it by
// (flash_attention_score_with_large_head_dim): TCubeTiling, from the Matmul API.
#pragma once

#include "lib/matmul_intf.h"
