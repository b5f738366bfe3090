"""Golden for GroupQuant (cann-ops src/quant/group_quant).

Documented semantics (docs/aclnnGroupQuant.md): y = round(x * scale + offset) over x [S, H], where
scale [E, H] holds one row of scales per group and group_index [E] gives the groups' cumulative
ends: non-decreasing, at least 0, the last equal to S. Row s belongs to the first group e with
s < group_index[e] (a group whose end equals its predecessor's is empty). offset is one value,
optional. dst_type 2 gives int8 (3 int32 and 29 int4 are the others). round() halves to even, as
the kernel's CAST_RINT does; values past the int8 range saturate. Computed in float64 from the
inputs as stored.
"""
import numpy as np


def group_quant_golden(x, scale, group_index, offset=None, y=None, dst_type=2, **_attrs):
    xv = np.asarray(x["value"], np.float64)
    sv = np.asarray(scale["value"], np.float64)
    ends = np.asarray(group_index["value"]).astype(np.int64)
    rows = np.arange(xv.shape[0])
    group = np.searchsorted(ends, rows, side="right")  # the first e with row < ends[e]
    t = xv * sv[group]
    if offset is not None and offset.get("value") is not None:
        t = t + float(np.asarray(offset["value"], np.float64).reshape(-1)[0])
    return [np.clip(np.rint(t), -128, 127)]
