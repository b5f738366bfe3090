"""Golden for BatchMatMulV3 (cann-ops src/matmul/batch_mat_mul_v3).

Documented semantics (README.md, doc/aclnnBatchMatmul.md): y = x1 @ x2 over the last two
dimensions, batch dimensions in front; a batch dimension of 1 in one input broadcasts to the
other's (the docs' examples [A, M, K] @ [1, K, N] and [1, M, K] @ [B, K, N]; numpy.matmul rules,
which the tiling's batch check follows per dimension). adj_x1 / adj_x2 (OpDef attributes) read
that input with its last two dimensions swapped. The optional bias is [n] or [batch..., 1, n]
(the README's 2 * 1 * 16; op_host CheckBatchAndBias), added to every row. Computed exactly in
float64 from the input values; the comparison rounds the result to y's dtype.
"""
import numpy as np


def _mat(t, adjoint):
    v = np.asarray(t["value"], dtype=np.float64)
    return np.swapaxes(v, -1, -2) if adjoint else v


def batch_mat_mul_v3_golden(x1, x2, bias=None, offset_w=None, y=None, adj_x1=False, adj_x2=False, **_attrs):
    a = _mat(x1, bool(adj_x1))
    b = _mat(x2, bool(adj_x2))
    if a.shape[-1] != b.shape[-2]:
        raise ValueError("BatchMatMulV3: inner dimensions differ: %s @ %s" % (a.shape, b.shape))
    out = np.matmul(a, b)
    if bias is not None and bias.get("value") is not None:
        out = out + np.asarray(bias["value"], dtype=np.float64)
    return out
