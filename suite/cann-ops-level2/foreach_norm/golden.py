"""Golden for ForeachNorm (cann-ops src/foreach/foreach_norm).

Documented semantics (docs/aclnnForeachNorm.md, as torch._foreach_norm): for every tensor x_i of
the list, one value y_i = (sum over its elements of |x|^p)^(1/p), p being the scalar input
(FLOAT or INT64), in x's dtype. Computed here in float64 and rounded by the runner. For p = inf
the limit, max |x|, and for p = 0 the count of non-zero elements (torch's conventions); no case
of the suite uses those two. NaN anywhere in a tensor gives NaN; an infinity gives inf.
"""
import numpy as np


def _norm(v, p):
    a = np.abs(v.astype(np.float64)).reshape(-1)
    if np.isnan(a).any():
        return np.float64("nan")
    if p == np.inf:
        return a.max()
    if p == 0:
        return np.float64(np.count_nonzero(a))
    if np.isinf(a).any():
        return np.float64("inf")
    m = a.max()
    if m == 0:
        return np.float64(0.0)
    # scaled by the largest magnitude so that |x|^p neither overflows nor underflows float64
    return m * np.power(np.sum(np.power(a / m, p)), 1.0 / p)


def foreach_norm_golden(x, scalar, y=None, **_attrs):
    p = float(np.asarray(scalar["value"]).reshape(-1)[0])
    return [np.array(_norm(t["value"], p)) for t in x]
