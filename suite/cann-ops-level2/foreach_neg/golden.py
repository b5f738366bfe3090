"""Golden for ForeachNeg (cann-ops src/foreach/foreach_neg).

Documented semantics (docs/aclnnForeachNeg.md, as torch._foreach_neg): y_i = -x_i for every
tensor x_i of the list, element by element.
- floats: a sign flip (exact; NaN stays NaN, +-inf swap).
- int32: two's-complement negation in 32 bits, as torch does for int32 tensors, so the most
  negative value wraps to itself (-(-2^31) = -2^31). The docs say nothing about overflow.
"""
import numpy as np


def _neg(t):
    v = t["value"]
    if t["dtype"] == "int32":
        return (-v.astype(np.int64)).astype(np.int32)  # wraps modulo 2^32
    return -v.astype(np.float64)


def foreach_neg_golden(x, y=None, **_attrs):
    return [_neg(t) for t in x]
