"""Golden for MatMulV3 (cann-ops src/matmul/mat_mul_v3).

Documented semantics (README.md, doc/aclnnMatmul.md): y = x1 @ x2, with x1 read as its transpose
when transpose_x1 is set and x2 when transpose_x2 is set (OpDef attributes), plus the optional
bias broadcast over the rows (README: bias of shape [..., 1, n]). The reference is the exact
product of the input values (already rounded to their dtypes) in float64, plus the bias, rounded
once to y's dtype by the comparison; the cube accumulates in float32, which the per-case
tolerances allow for.
"""
import numpy as np


def _mat(t, transpose):
    v = np.asarray(t["value"], dtype=np.float64)
    return np.swapaxes(v, -1, -2) if transpose else v


def mat_mul_v3_golden(x1, x2, bias=None, offset_w=None, y=None, transpose_x1=False, transpose_x2=False,
                      **_attrs):
    a = _mat(x1, bool(transpose_x1))
    b = _mat(x2, bool(transpose_x2))
    if a.shape[-1] != b.shape[-2]:
        raise ValueError("MatMulV3: inner dimensions differ: %s @ %s" % (a.shape, b.shape))
    out = np.matmul(a, b)
    if bias is not None and bias.get("value") is not None:
        out = out + np.asarray(bias["value"], dtype=np.float64)
    return out.reshape(y["shape"]) if y is not None and y.get("shape") is not None else out
