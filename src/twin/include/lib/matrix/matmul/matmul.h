// The Matmul API under the path some kernels include it by (rfft1_d, stft): lib/matmul_intf.h.
#pragma once

#include "lib/matmul_intf.h"
