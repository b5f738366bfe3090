"""Golden for ForeachMulList (cann-ops src/foreach/foreach_mul_list).

Documented semantics (docs/aclnnForeachMulList.md, as torch._foreach_mul with two lists):
y_i = x1_i * x2_i for every pair of tensors, element by element.
- floats: the float64 product of the given values (exact for every 16- and 32-bit pair),
  rounded to the output dtype by the runner (IEEE: inf * 0 = NaN, overflow to inf).
- int32: the low 32 bits of the product (two's-complement wrap), as torch's int32 tensors do.
"""
import numpy as np


def _mul(a, b):
    if a["dtype"] == "int32":
        return (a["value"].astype(np.int64) * b["value"].astype(np.int64)).astype(np.int32)  # wraps modulo 2^32
    with np.errstate(invalid="ignore", over="ignore"):
        return a["value"].astype(np.float64) * b["value"].astype(np.float64)


def foreach_mul_list_golden(x1, x2, y=None, **_attrs):
    return [_mul(a, b) for a, b in zip(x1, x2)]
