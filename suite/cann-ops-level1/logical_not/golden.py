"""Golden for LogicalNot (cann-ops src/math/logical_not).

Documented semantics (docs/LogicalNot.md): y = NOT x, element by element, on bool tensors of one
shape (y takes x's shape).
"""
import numpy as np


def logical_not_golden(x, y=None, **_attrs):
    out = np.logical_not(np.asarray(x["value"]) != 0)
    return out.reshape(y["shape"]) if y is not None else out
