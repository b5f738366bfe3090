"""Golden for InplaceAttnSoftmax (cann-ops src/math/inplace_attn_softmax).

Documented semantics (docs/InplaceAttnSoftmax.md, README.md): the same computation as
torch.nn.Softmax over the last axis of x, written back into x (no output tensor):
    x[..., j] <- exp(x[..., j]) / sum_k exp(x[..., k])
The docs describe the input as reshaped to [rows, cols] with cols the last dimension, so the
softmax runs over the last dimension only. Computed in float64 with the row maximum subtracted
first (the value is the same; it keeps large inputs finite). As in torch, an entry of -inf
contributes exp(-inf) = 0; a row that is entirely -inf, or that holds +inf, is NaN (no case
feeds either: the docs say nothing about them).
"""
import numpy as np


def _softmax_last_axis(v):
    v = np.asarray(v, dtype=np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        m = np.max(v, axis=-1, keepdims=True)
        e = np.exp(v - m)
        return e / np.sum(e, axis=-1, keepdims=True)


def inplace_attn_softmax_golden(x, **_attrs):
    # The operator has no OpDef output: the manifest names x `inplace`, and the golden returns
    # x's final contents.
    return [_softmax_last_axis(x["value"])]
