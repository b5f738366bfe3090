"""Golden for StridesliceNegConcatV2 (cann-ops src/math/strideslice_neg_concat_v2).

Documented semantics (docs/StrideSliceNegConcatV2.md, implementation section): for a 4-D input
of shape N, H, W, C and mid = C // 2,
    output[..., :mid] = input[..., :mid]
    output[..., mid:] = -input[..., mid:]
(the same page's sigmoid formula names an undefined t and is not followed). output has input's
shape and dtype.
"""
import numpy as np


def strideslice_neg_concat_v2_golden(input, output=None, **_attrs):
    x = np.asarray(input["value"], dtype=np.float64)
    if x.ndim != 4:
        raise ValueError("input must have 4 dimensions (N, H, W, C)")
    y = x.copy()
    mid = x.shape[3] // 2
    y[..., mid:] = -x[..., mid:]
    return [y]
