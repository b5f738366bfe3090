"""Golden for MatmulApiConstant (cann-ops src/math/matmul_api_constant).

Documented semantics (docs/MatmulApiConstant.md): c = (a x b) + bias, with a [M, K] and b [K, N]
in float16, bias [N] in float32 added to every row, c [M, N] in float32 (OpDef,
op_host/matmul_api_constant.cpp). The product of float16 values is exact in float64; the
reference rounds the biased sum to float32 once.
"""
import numpy as np


def matmul_api_constant_golden(a, b, bias, c=None, **_attrs):
    x = np.asarray(a["value"], dtype=np.float64)
    y = np.asarray(b["value"], dtype=np.float64)
    v = np.asarray(bias["value"], dtype=np.float64).reshape(-1)
    if x.ndim != 2 or y.ndim != 2 or x.shape[1] != y.shape[0] or v.shape[0] != y.shape[1]:
        raise ValueError("MatmulApiConstant takes a [M, K], b [K, N] and bias [N]; got %s, %s, %s" % (x.shape, y.shape, v.shape))
    return (x @ y + v).astype(np.float32)
