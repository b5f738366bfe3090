"""Golden for Less (cann-ops src/math/less).

Documented semantics (docs/Less.md, README.md): element by element, is the first input smaller
than the second; y = x1 < x2 is bool and x1, x2, y share one shape. The docs' formulas describe
how the float kernels compute it; the result they document is the IEEE comparison: -0.0 < +0.0
is false, anything compared with NaN is false. Floats are widened exactly to float64 and
integers (uint8 included) to int64, so every comparison is exact, int64 as well.
"""
import numpy as np


def _exact(t):
    v = np.asarray(t["value"])
    return v.astype(np.float64) if v.dtype.kind == "f" else v.astype(np.int64)


def less_golden(x1, x2, y=None, **_attrs):
    out = np.less(_exact(x1), _exact(x2))
    return out.reshape(y["shape"]) if y is not None else out
