// Scalar math for the twin's vector APIs, through compiler builtins. The <cmath> wrappers
// (std::exp, std::floor, ...) are inline functions the kernel build would instrument and, as
// they are not ASCENDOPT_TWIN_FN, not inline into the twin: they would be charged as the
// kernel's scalar work once per element. Builtins compile to the libm call or instruction.
#pragma once

#include "ascendopt_twin/attrs.h"

namespace ascendopt_twin::math {

#define ASCENDOPT_TWIN_MATH(NAME, FLOAT_BUILTIN, DOUBLE_BUILTIN)                           \
    ASCENDOPT_TWIN_FN inline float NAME(float x) { return FLOAT_BUILTIN(x); }              \
    ASCENDOPT_TWIN_FN inline double NAME(double x) { return DOUBLE_BUILTIN(x); }           \
    template <class I>                                                                     \
    ASCENDOPT_TWIN_FN inline double NAME(I x) { return DOUBLE_BUILTIN(static_cast<double>(x)); }

ASCENDOPT_TWIN_MATH(exp, __builtin_expf, __builtin_exp)
ASCENDOPT_TWIN_MATH(log, __builtin_logf, __builtin_log)
ASCENDOPT_TWIN_MATH(sqrt, __builtin_sqrtf, __builtin_sqrt)
ASCENDOPT_TWIN_MATH(sin, __builtin_sinf, __builtin_sin)
ASCENDOPT_TWIN_MATH(cos, __builtin_cosf, __builtin_cos)
ASCENDOPT_TWIN_MATH(tanh, __builtin_tanhf, __builtin_tanh)
ASCENDOPT_TWIN_MATH(tan, __builtin_tanf, __builtin_tan)
ASCENDOPT_TWIN_MATH(atan, __builtin_atanf, __builtin_atan)
ASCENDOPT_TWIN_MATH(asin, __builtin_asinf, __builtin_asin)
ASCENDOPT_TWIN_MATH(acos, __builtin_acosf, __builtin_acos)
ASCENDOPT_TWIN_MATH(sinh, __builtin_sinhf, __builtin_sinh)
ASCENDOPT_TWIN_MATH(cosh, __builtin_coshf, __builtin_cosh)
ASCENDOPT_TWIN_MATH(erf, __builtin_erff, __builtin_erf)
ASCENDOPT_TWIN_MATH(floor, __builtin_floorf, __builtin_floor)
ASCENDOPT_TWIN_MATH(ceil, __builtin_ceilf, __builtin_ceil)
ASCENDOPT_TWIN_MATH(round, __builtin_roundf, __builtin_round)
ASCENDOPT_TWIN_MATH(trunc, __builtin_truncf, __builtin_trunc)
ASCENDOPT_TWIN_MATH(nearbyint, __builtin_nearbyintf, __builtin_nearbyint)
#undef ASCENDOPT_TWIN_MATH

ASCENDOPT_TWIN_FN inline bool isnan(double x) { return __builtin_isnan(x); }
ASCENDOPT_TWIN_FN inline bool isinf(double x) { return __builtin_isinf(x); }

}  // namespace ascendopt_twin::math
