"""Golden for ForeachLerpScalar (cann-ops src/foreach/foreach_lerp_scalar).

Documented semantics (docs/aclnnForeachLerpScalar.md, as torch._foreach_lerp with a scalar
weight): y_i = x1_i + weight * (x2_i - x1_i) for every pair of tensors of the lists x1 and x2,
element by element, computed here in float64 from the given values and rounded to the output
dtype by the runner. NaN in either input gives NaN.
"""
import numpy as np


def foreach_lerp_scalar_golden(x1, x2, weight, y=None, **_attrs):
    w = np.float64(np.asarray(weight["value"]).reshape(-1)[0])
    out = []
    for a, b in zip(x1, x2):
        a64 = a["value"].astype(np.float64)
        out.append(a64 + w * (b["value"].astype(np.float64) - a64))
    return out
