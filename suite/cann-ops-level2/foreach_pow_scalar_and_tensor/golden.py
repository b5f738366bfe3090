"""Golden for ForeachPowScalarAndTensor (cann-ops src/foreach/foreach_pow_scalar_and_tensor).

Documented semantics (docs/aclnnForeachPowScalarAndTensor.md, as torch._foreach_pow with a
scalar base): y_i = scalar ** x_i for every tensor x_i of the list, element by element; the
scalar is the base and the list holds the exponents.
- floats: numpy's float64 power, which follows C pow as torch does (pow(b, 0) = 1,
  pow(1, NaN) = 1, pow(0, negative) = inf, a negative base to a non-integer power is NaN),
  rounded to the output dtype by the runner.
- int32 (scalar given as int64): exact integer power for non-negative exponents. Negative
  integer exponents are an error in torch; the golden refuses them.
"""
import numpy as np


def _pow_int(base, t):
    e = t["value"].astype(np.int64)
    if (e < 0).any():
        raise ValueError("integer powers with negative exponents are not defined (torch refuses them)")
    return np.array([pow(int(base), int(k)) for k in e.reshape(-1)], dtype=object).reshape(e.shape).astype(np.int64)


def foreach_pow_scalar_and_tensor_golden(scalar, x, y=None, **_attrs):
    s = np.asarray(scalar["value"]).reshape(-1)[0]
    if x[0]["dtype"] == "int32":
        return [_pow_int(s, t) for t in x]
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        return [np.power(np.float64(s), t["value"].astype(np.float64)) for t in x]
