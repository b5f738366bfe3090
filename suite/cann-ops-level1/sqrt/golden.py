"""Golden for Sqrt (cann-ops src/math/sqrt).

Documented semantics: y = sqrt(x) element by element, for x >= 0. Computed in float64 and
rounded once to the output dtype by the comparison (IEEE: sqrt(-0.0) = -0.0, sqrt(inf) = inf).
"""
import numpy as np


def sqrt_golden(x, y, **_attrs):
    with np.errstate(invalid="ignore"):
        return np.sqrt(x["value"].astype(np.float64))
