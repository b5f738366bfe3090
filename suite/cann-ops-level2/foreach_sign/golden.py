"""Golden for ForeachSign (cann-ops src/foreach/foreach_sign).

Documented semantics (docs/aclnnForeachSign.md, as torch._foreach_sign): for every tensor x_i of
the list, y_i = 1 where x_i > 0, 0 where x_i == 0 (-0.0 included), -1 where x_i < 0, in x's dtype.
+-inf have the sign of their side. The docs define no result for NaN and no case feeds one.
"""
import numpy as np


def _sign(t):
    v = t["value"]
    if t["dtype"] in ("int8", "int32", "int64"):
        return np.sign(v.astype(np.int64))
    f = v.astype(np.float64)
    if np.isnan(f).any():
        raise ValueError("the documented sign has no value for NaN")
    return np.sign(f)


def foreach_sign_golden(x, y=None, **_attrs):
    return [_sign(t) for t in x]
