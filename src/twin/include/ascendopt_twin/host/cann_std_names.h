// The standard (and secure C) names CANN's host headers make visible unqualified. The cube tiling sources that
// gemm_v2 and mat_mul_v3 compile (src/common/op_host/op_tiling/*.cc of a cann-ops tree) write
// `string` and `vector` at global scope and inside namespace optiling without a using of their
// own, so the twin's platform headers declare them, as using-declarations of exactly these two
// names rather than `using namespace std` (docs/twin.md, "The Matmul API"). The same sources
// call memset_s without including securec.h, which CANN's headers include for them.
#pragma once

#include <string>
#include <vector>

#include "securec.h"

using std::string;
using std::vector;
