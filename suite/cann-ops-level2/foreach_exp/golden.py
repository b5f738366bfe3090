"""Golden for ForeachExp (cann-ops src/foreach/foreach_exp).

Documented semantics (docs/aclnnForeachExp.md, as torch._foreach_exp): y_i = e^{x_i} for every
tensor x_i of the list, element by element, computed here in float64 and rounded to the output
dtype by the runner (a result beyond the dtype's range becomes inf, as in IEEE arithmetic;
exp(-inf) = 0, exp(NaN) = NaN).
"""
import numpy as np


def foreach_exp_golden(x, y=None, **_attrs):
    with np.errstate(over="ignore"):
        return [np.exp(t["value"].astype(np.float64)) for t in x]
