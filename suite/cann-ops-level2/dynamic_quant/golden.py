"""Golden for DynamicQuant (cann-ops src/quant/dynamic_quant).

Documented semantics (docs/aclnnDynamicQuant.md, formula section): per-token symmetric int8
quantization. With input = x (or x * smooth_scales, the smoothing vector broadcast over the last
dimension, when smooth_scales is given):
    scale = row_max(|input|) / 127          one value per row (x's shape without its last dimension)
    y     = round(input / scale)            int8
round() is not specified further; the golden rounds half to even (numpy / torch.round). The cases
avoid exact halves where the result is compared exactly. group_index (the MoE form) is not
documented in the operator's docs and no case uses it. Computed in float64.
"""
import numpy as np


def dynamic_quant_golden(x, smooth_scales=None, group_index=None, y=None, scale=None, dst_type=2, **_attrs):
    if group_index is not None:
        raise ValueError("group_index has no documented semantics in docs/aclnnDynamicQuant.md")
    inp = np.asarray(x["value"], np.float64)
    if smooth_scales is not None:
        inp = inp * np.asarray(smooth_scales["value"], np.float64)
    row_max = np.max(np.abs(inp), axis=-1, keepdims=True)
    s = row_max / 127.0
    q = np.round(inp / s)
    return [q.astype(np.int64), s.reshape(inp.shape[:-1])]
