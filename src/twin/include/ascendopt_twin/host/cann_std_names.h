// The standard (and secure C) names CANN's host headers make visible unqualified. The cube tiling sources that
// gemm_v2 and mat_mul_v3 compile (src/common/op_host/op_tiling/*.cc of a cann-ops tree) write
// `string` and `vector` at global scope and inside namespace optiling without a using of their
// own, so the twin's platform headers declare them, as using-declarations of exactly these
// names rather than `using namespace std` (docs/twin.md, "The Matmul API"). The same sources
// call memset_s without including securec.h, which CANN's headers include for them. Operator
// tiling sources write `map` the same way (ge_glu_grad_v2's dtype tables in namespace optiling).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "securec.h"

using std::map;
using std::string;
using std::vector;
