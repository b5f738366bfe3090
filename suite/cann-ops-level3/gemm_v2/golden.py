"""Golden for GemmV2 (cann-ops src/matmul/gemm_v2).

Documented semantics (doc/GemmV2.md, README.md): out = alpha * (A @ B) + beta * C, with A and B
float16 or bfloat16, alpha and beta one-element tensors of A's dtype, C and out float32 (the
OpDef names both the input and the output `c`: the result is written over C). transpose_a /
transpose_b (OpDef attributes) read A as [k, m] / B as [n, k]. Computed exactly in float64 from
the input values; the comparison rounds the result to float32.
"""
import numpy as np


def _mat(t, transpose):
    v = np.asarray(t["value"], dtype=np.float64)
    return v.T if transpose else v


def gemm_v2_golden(a, b, alpha, beta, c, transpose_a=False, transpose_b=False, **_attrs):
    x = _mat(a, bool(transpose_a))
    y = _mat(b, bool(transpose_b))
    if x.ndim != 2 or y.ndim != 2 or x.shape[1] != y.shape[0]:
        raise ValueError("GemmV2 takes 2-D A [m, k] and B [k, n]; got %s and %s" % (x.shape, y.shape))
    al = float(np.asarray(alpha["value"], dtype=np.float64).reshape(-1)[0])
    be = float(np.asarray(beta["value"], dtype=np.float64).reshape(-1)[0])
    cin = np.asarray(c["value"], dtype=np.float64)
    return [al * (x @ y) + be * cin]
