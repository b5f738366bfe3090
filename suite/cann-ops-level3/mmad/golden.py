"""Golden for Mmad (cann-ops src/matmul/mmad).

Documented semantics (README.md and docs/Mmad.md): C = A * B + Bias, A of shape [M, K] and B of
shape [K, N] in float16, Bias of shape [N] in float32 added to every row of the product, C of
shape [M, N] in float32. The kernel computes the product on the cube (fp16 inputs, fp32
accumulation) and starts each result tile from the bias, so the reference is the exact product
of the float16 values, plus the bias, rounded once to float32.
"""
import numpy as np


def mmad_golden(a, b, bias, c=None, **_attrs):
    x = np.asarray(a["value"], dtype=np.float64)
    y = np.asarray(b["value"], dtype=np.float64)
    v = np.asarray(bias["value"], dtype=np.float64).reshape(-1)
    if x.ndim != 2 or y.ndim != 2 or x.shape[1] != y.shape[0] or v.shape[0] != y.shape[1]:
        raise ValueError("Mmad takes a [M, K], b [K, N] and bias [N]; got %s, %s and %s" % (x.shape, y.shape, v.shape))
    return (x @ y + v).astype(np.float32)
