"""Golden for UpsampleLinear1d (cann-ops src/image/upsample_linear1d).

Documented semantics (docs/aclnnUpsampleLinear1d.md: linear interpolation of an (N, C, L) input
to (N, C, outputSize); alignCorners as in PyTorch; outputSize = floor(L * scales) when scales is
given). The docs follow PyTorch's upsample_linear1d, whose coordinate mapping the golden uses:
    align_corners: src = dst * (L - 1) / (outL - 1)          (0 when outL == 1)
    otherwise:     src = max((dst + 0.5) * ratio - 0.5, 0)   ratio = scale if > 0 else L / outL
    y[dst] = (1 - l) * x[floor(src)] + l * x[min(floor(src) + 1, L - 1)],  l = src - floor(src).
The kernel attribute `scale` holds the ratio, the reciprocal of the aclnn `scales`
(op_host/upsample_linear1d_l0.cpp passes 1 / scale). The kernel takes x as (N, C, 1, L) (the
aclnn unsqueezes dim 2, aclnn_upsample_linear1d.cpp View3dAs4d) and y as (N, C, outL); the
golden reads L from x's last axis. Computed in float64; the runner rounds to y's dtype.
"""
import math

import numpy as np


def _ratio(in_size, out_size, align_corners, scale):
    """Source pixels per output pixel: PyTorch's area_pixel_compute_scale, with the attribute
    already holding 1/scales (the aclnn layer passes 1.0 / scales to the kernel attribute), and
    1 for an axis whose size does not change (the tilings' scale computation)."""
    if in_size == out_size:
        return 1.0
    if align_corners:
        return (in_size - 1) / (out_size - 1) if out_size > 1 else 0.0
    if scale is not None and float(scale) > 0:
        return float(scale)
    return in_size / out_size


def linear_matrix(in_size, out_size, align_corners=False, scale=None):
    """[out, in] weights of PyTorch's linear / bilinear interpolation along one axis."""
    r = _ratio(in_size, out_size, align_corners, scale)
    m = np.zeros((out_size, in_size))
    for i in range(out_size):
        src = r * i if align_corners else max(r * (i + 0.5) - 0.5, 0.0)
        i0 = min(int(math.floor(src)), in_size - 1)
        i1 = min(i0 + 1, in_size - 1)
        lam = min(max(src - i0, 0.0), 1.0)
        m[i, i0] += 1.0 - lam
        m[i, i1] += lam
    return m



def upsample_linear1d_golden(x, size=None, y=None, align_corners=False, scale=None, **_attrs):
    v = np.asarray(x["value"], dtype=np.float64)
    out_l = int(y["shape"][-1])
    w = linear_matrix(v.shape[-1], out_l, bool(align_corners), scale)
    res = np.einsum("...l,ol->...o", v, w)
    return res.reshape(y["shape"])
