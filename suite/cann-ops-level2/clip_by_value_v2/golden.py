"""Golden for ClipByValueV2 (cann-ops src/math/clip_by_value_v2).

Documented semantics (docs/ClipByValueV2.md, "实现原理"): y has x's dtype and shape; every
value below clip_value_min becomes clip_value_min and every value above clip_value_max becomes
clip_value_max (TensorFlow's clip_by_value, which the operator's TF plugin maps). The bounds
are one-element tensors here. The docs leave min > max and NaN inputs undefined, and no case
uses them. Exact: the result is an input value or a bound.
"""
import numpy as np


def clip_by_value_v2_golden(x, clip_value_min, clip_value_max, y=None, **_attrs):
    v = np.asarray(x["value"])
    lo = np.asarray(clip_value_min["value"]).reshape(-1)[0]
    hi = np.asarray(clip_value_max["value"]).reshape(-1)[0]
    if x["dtype"] == "int32":
        return np.clip(v.astype(np.int64), int(lo), int(hi)).astype(np.int32)
    v = v.astype(np.float64)
    return np.where(v < lo, np.float64(lo), np.where(v > hi, np.float64(hi), v))
