// The smoke case of an operator that has no cases of its own (`ascendopt check` on a tree
// without manifests): enough to see that it builds, tiles and runs on the twin, not whether
// its results are right.
#pragma once

#include "core/case.h"
#include "eval/opdef.h"

namespace ascendopt {

inline const std::vector<int64_t> k_smoke_shape = {32, 64};

// The OpDef's first dtype combination ascendopt supports; every input and output of shape k_smoke_shape; inputs
// uniform in [-1, 1] (integers 0..3, booleans 0/1); attributes at their defaults, a required
// one at a neutral value of its kind (0, 0.0, false, "", []). It has no golden: it passes when
// the run ends without an error and writes every output (docs/operators.md, "Smoke runs").
Case smoke_case(const OpDefInfo& op);

}  // namespace ascendopt
