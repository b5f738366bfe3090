"""Golden for LogicalOr (cann-ops src/math/logical_or).

Documented semantics: y = x1 OR x2, element by element, on bool tensors of one shape.
"""
import numpy as np


def logical_or_golden(x1, x2, y, **_attrs):
    a = np.asarray(x1["value"]) != 0
    b = np.asarray(x2["value"]) != 0
    return np.logical_or(a, b)
