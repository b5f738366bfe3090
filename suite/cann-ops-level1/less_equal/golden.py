"""Golden for LessEqual (cann-ops src/math/less_equal).

Documented semantics (docs/LessEqual.md): y = x1 <= x2 element by element, y is bool, and
x1, x2, y share one shape. The comparison is the IEEE one: -0.0 <= +0.0 is true, inf <= inf is
true, anything compared with NaN is false. Floats are widened exactly to float64 and integers to
int64, so the comparison itself is exact.
"""
import numpy as np


def _exact(t):
    v = np.asarray(t["value"])
    return v.astype(np.float64) if v.dtype.kind == "f" else v.astype(np.int64)


def less_equal_golden(x1, x2, y=None, **_attrs):
    out = np.less_equal(_exact(x1), _exact(x2))
    return out.reshape(y["shape"]) if y is not None else out
