"""Golden for Xlogy (cann-ops src/math/xlogy).

Documented semantics (docs/Xlogy.md): y = 0 where x1 == 0, otherwise y = x1 * ln(x2), elementwise,
with x1 and x2 broadcast against each other (the docs' y "supports broadcasting"). The docs give
no exception for x1 == 0 with a non-finite ln(x2); their rule (and TensorFlow's xlogy, the
framework the operator's plugin registers with) yields 0 there. Computed in float64 from the
inputs as given; the runner rounds to y's dtype.
"""
import numpy as np


def xlogy_golden(x1, x2, y=None, **_attrs):
    a = np.asarray(x1["value"], dtype=np.float64)
    b = np.asarray(x2["value"], dtype=np.float64)
    a, b = np.broadcast_arrays(a, b)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(a == 0, 0.0, a * np.log(b))
    return r.reshape(y["shape"]) if y is not None else r
