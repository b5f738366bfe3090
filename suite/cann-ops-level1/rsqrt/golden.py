"""Golden for Rsqrt (cann-ops src/math/rsqrt).

Documented semantics: y = 1 / sqrt(x) element by element, for x > 0. Computed in float64
and rounded once to the output dtype by the comparison; 1/sqrt(+inf) = 0.
"""
import numpy as np


def rsqrt_golden(x, y, **_attrs):
    with np.errstate(divide="ignore", invalid="ignore"):
        return 1.0 / np.sqrt(x["value"].astype(np.float64))
