"""Golden for Pows (cann-ops src/math/pows).

Documented semantics (docs/Pows.md, aclnnPowTensorScalar): out_i = self_i ** exponent. The Pows
operator receives self as x1 and the scalar exponent as the one-element tensor x2 of x1's dtype
(op_host/aclnn_pow.cpp converts the aclScalar with ConvertToTensor; op_host/pows_l0.cpp launches
Pows with it), and y has x1's shape. Powers follow IEEE pow as numpy computes it in float64
(torch.pow agrees on the values used here: pow(+-0, negative) is +inf, or -inf for -0 and an odd
negative integer exponent; a negative base with a non-integer exponent is NaN).
"""
import numpy as np


def pows_golden(x1, x2, y=None, **_attrs):
    base = np.asarray(x1["value"], dtype=np.float64)
    e = np.asarray(x2["value"], dtype=np.float64).reshape(-1)
    if e.size < 1:
        raise ValueError("x2 must hold the exponent")
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return np.power(base, e[0])
