"""Golden for ComplexMatMul (cann-ops src/matmul/complex_mat_mul).

Documented semantics (docs/ComplexMatMul.md): output = matmul(x, y) + bias, all complex64; x
[..., m, k] and y [..., k, n] with the same leading (batch) dimensions, matrix products over the
last two; bias optional. The kernel reads bias with output's layout (op_kernel: one m x n
matrix per batch), so bias has output's shape. Computed exactly in complex128 from the input
values; the comparison rounds the result to complex64.
"""
import numpy as np


def complex_mat_mul_golden(x, y, bias=None, z=None, **_attrs):
    a = np.asarray(x["value"]).astype(np.complex128)
    b = np.asarray(y["value"]).astype(np.complex128)
    if a.ndim < 2 or a.ndim != b.ndim or a.shape[:-2] != b.shape[:-2] or a.shape[-1] != b.shape[-2]:
        raise ValueError("ComplexMatMul takes x [..., m, k] and y [..., k, n]; got %s and %s" % (a.shape, b.shape))
    out = np.matmul(a, b)
    if bias is not None and bias.get("value") is not None:
        out = out + np.asarray(bias["value"]).astype(np.complex128)
    return [out]
