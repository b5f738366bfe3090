"""Golden for Reciprocal (cann-ops src/math/reciprocal).

Documented semantics: y = 1 / x element by element (the docs' formula; their prose says
"reciprocal of the square root", which contradicts the formula and the operator's name, so
the formula is followed). Computed in float64 and rounded once to the output dtype by the
comparison; IEEE conventions give 1/(+-inf) = +-0.
"""
import numpy as np


def reciprocal_golden(x, y, **_attrs):
    with np.errstate(divide="ignore", over="ignore"):
        return 1.0 / x["value"].astype(np.float64)
