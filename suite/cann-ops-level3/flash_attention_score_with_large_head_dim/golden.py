"""Golden for FlashAttentionScoreWithLargeHeadDim (cann-ops
src/math/flash_attention_score_with_large_head_dim).

Documented semantics (docs/README.md): attention_out = Softmax(scale * query @ key^T) @ value,
the forward of self-attention computed with the FlashAttention algorithm (this operator has no
pse, mask or dropout inputs, so those terms of the docs' formula are absent), plus the softmax's
row maximum and row sum (softmax_max, softmax_sum, float32, shape [B, N, Sq, 8]: each row's value
repeated 8 times) kept for the backward pass. Layout (op_host tiling, GetShapeAttrsInfo): query
[B, Sq, Nq * D], key and value [B, Skv, Nkv * D] with D = Hq / head_num; Nq / Nkv = G query heads
share one key/value head (GQA; query head n uses key/value head n // G). softmax_max is the row
maximum of scale * q k^T, softmax_sum the row sum of exp(scale * q k^T - max). Computed in
float64 from the float16 inputs.
"""
import numpy as np


def flash_attention_score_with_large_head_dim_golden(query, key, value, softmax_max=None, softmax_sum=None,
                                                     attention_out=None, scale_value=1.0, head_num=1, **_attrs):
    q = np.asarray(query["value"], dtype=np.float64)
    k = np.asarray(key["value"], dtype=np.float64)
    v = np.asarray(value["value"], dtype=np.float64)
    b, sq, hq = q.shape
    _, skv, hkv = k.shape
    nq = int(head_num)
    if hq % nq != 0:
        raise ValueError("query's H (%d) is no multiple of head_num (%d)" % (hq, nq))
    d = hq // nq
    if hkv % d != 0 or nq % (hkv // d) != 0:
        raise ValueError("key's H (%d) does not give a key/value head count dividing %d" % (hkv, nq))
    nkv = hkv // d
    g = nq // nkv
    qh = q.reshape(b, sq, nq, d).transpose(0, 2, 1, 3)            # [B, Nq, Sq, D]
    kh = k.reshape(b, skv, nkv, d).transpose(0, 2, 1, 3)          # [B, Nkv, Skv, D]
    vh = v.reshape(b, skv, nkv, d).transpose(0, 2, 1, 3)
    kh = np.repeat(kh, g, axis=1)                                  # query head n -> kv head n // g
    vh = np.repeat(vh, g, axis=1)
    s = float(scale_value) * np.matmul(qh, np.swapaxes(kh, -1, -2))  # [B, Nq, Sq, Skv]
    m = np.max(s, axis=-1, keepdims=True)
    e = np.exp(s - m)
    l = np.sum(e, axis=-1, keepdims=True)
    out = np.matmul(e / l, vh)                                     # [B, Nq, Sq, D]
    out = out.transpose(0, 2, 1, 3).reshape(b, sq, hq)
    return [np.repeat(m, 8, axis=-1), np.repeat(l, 8, axis=-1), out]
