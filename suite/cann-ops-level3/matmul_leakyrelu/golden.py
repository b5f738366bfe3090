"""Golden for MatmulLeakyrelu (cann-ops src/math/matmul_leakyrelu).

Documented semantics (docs/MatmulLeakyRelu.md): C = A * B + Bias, then C = C > 0 ? C : C * 0.001,
with A [M, K] float16, B [K, N] float16, Bias [N] float32 added to every row, C [M, N] float32.
The product of float16 values is exact in float64; the reference rounds the biased sum to
float32 once and applies the slope 0.001 (the tiling's alpha, op_host/matmul_leakyrelu.cpp) in
float32, as the kernel's LeakyRelu does on the float result.
"""
import numpy as np


def matmul_leakyrelu_golden(a, b, bias, c=None, **_attrs):
    x = np.asarray(a["value"], dtype=np.float64)
    y = np.asarray(b["value"], dtype=np.float64)
    v = np.asarray(bias["value"], dtype=np.float64).reshape(-1)
    if x.ndim != 2 or y.ndim != 2 or x.shape[1] != y.shape[0] or v.shape[0] != y.shape[1]:
        raise ValueError("MatmulLeakyrelu takes a [M, K], b [K, N] and bias [N]; got %s, %s, %s" % (x.shape, y.shape, v.shape))
    z = (x @ y + v).astype(np.float32)
    return np.where(z > 0, z, z * np.float32(0.001)).astype(np.float32)
