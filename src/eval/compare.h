// Compares an operator's output with its golden, element by element. Floats pass when
// |actual - expected| <= atol + rtol * |expected| (NaN matches NaN, infinities match by sign);
// integers and bools must be equal unless the case sets a tolerance, and a bool byte must be 0
// or 1 whatever the tolerance (outputs start filled with 0xFF, which is no bool). The golden is
// first rounded to the output dtype, as the operator's result is.
#pragma once

#include <vector>

#include "core/case.h"
#include "core/eval_result.h"

namespace ascendopt {

OutputComparison compare_output(const TensorSpec& spec, const std::vector<char>& actual_bytes,
                                const std::vector<double>& golden, const Tolerance& tol);

// The tolerance a case uses for `spec`: the dtype default, under the case's settings, under the
// tensor's own (each only where it sets rtol or atol).
Tolerance tolerance_for(const Case& c, const TensorSpec& spec);

}  // namespace ascendopt
