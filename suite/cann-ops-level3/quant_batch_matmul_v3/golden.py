"""Golden for QuantBatchMatmulV3 (cann-ops src/matmul/quant_batch_matmul_v3).

Documented semantics (README.md, doc/aclnnQuantMatmulV3.md):
    no bias:                     out = x1 @ x2 * scale + offset
    int32 bias:                  out = (x1 @ x2 + bias) * scale + offset
    bfloat16 / float32 bias:     out = x1 @ x2 * scale + bias        (no offset)
x1 [batch..., m, k] (transpose_x1: [batch..., k, m]), x2 [batch..., k, n] (transpose_x2:
[batch..., n, k]), batch dimensions broadcast; scale and offset of shape [1] or [n]; bias [n] or
[batch, 1, n]. The integer product is exact (int64 here); the rest is computed in float64 and
rounded once to out's dtype by the comparison. Only the float32 / bfloat16 scale forms are used by
the cases (the uint64 / int64 forms carry a scale encoded by TransQuantParamV2, which these docs do
not define).
"""
import numpy as np


def _mat(t, transpose):
    v = np.asarray(t["value"]).astype(np.int64)
    return np.swapaxes(v, -1, -2) if transpose else v


def quant_batch_matmul_v3_golden(x1, x2, scale, offset=None, bias=None, pertoken_scale=None, y=None,
                                 transpose_x1=False, transpose_x2=False, **_attrs):
    if pertoken_scale is not None and pertoken_scale.get("value") is not None:
        raise ValueError("pertoken_scale is not documented in doc/aclnnQuantMatmulV3.md; no golden for it")
    a = _mat(x1, bool(transpose_x1))
    b = _mat(x2, bool(transpose_x2))
    if a.shape[-1] != b.shape[-2]:
        raise ValueError("QuantBatchMatmulV3: inner dimensions differ: %s @ %s" % (a.shape, b.shape))
    acc = np.matmul(a, b)  # exact integer product
    s = np.asarray(scale["value"], dtype=np.float64).reshape(-1)
    has_bias = bias is not None and bias.get("value") is not None
    int_bias = has_bias and "int" in str(bias.get("dtype", ""))
    if int_bias:
        acc = acc + np.asarray(bias["value"]).astype(np.int64)
    out = acc.astype(np.float64) * s
    if has_bias and not int_bias:
        out = out + np.asarray(bias["value"], dtype=np.float64)
    if offset is not None and offset.get("value") is not None:
        out = out + np.asarray(offset["value"], dtype=np.float64).reshape(-1)
    return [out]
