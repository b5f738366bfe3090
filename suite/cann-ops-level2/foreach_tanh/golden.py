"""Golden for ForeachTanh (cann-ops src/foreach/foreach_tanh).

Documented semantics (docs/aclnnForeachTanh.md, as torch._foreach_tanh): for every tensor x_i of
the list, y_i = (e^x - e^-x) / (e^x + e^-x) element by element, i.e. tanh, computed here with
numpy's float64 tanh (which takes the formula's limits: tanh(+-inf) = +-1, tanh(NaN) = NaN).
"""
import numpy as np


def foreach_tanh_golden(x, y=None, **_attrs):
    return [np.tanh(t["value"].astype(np.float64)) for t in x]
