"""Golden for UpsampleBilinear2d (cann-ops src/image/upsample_bilinear2d).

Documented semantics (docs/aclnnUpsampleBilinear2d.md: 2-D bilinear upsampling of an NCHW tensor
to (N, C, outputSize[0], outputSize[1]), alignCorners as in PyTorch, the 3x3 -> 5x5 example; the
docs name PyTorch's upsample_bilinear2d, whose coordinate mapping the golden follows):
    align_corners: src = dst * (in - 1) / (out - 1)          (0 when out == 1)
    otherwise:     src = max((dst + 0.5) * ratio - 0.5, 0)   ratio = scales[i] if > 0 else in / out
and out = (1 - l) * x[floor(src)] + l * x[min(floor(src) + 1, in - 1)], l = src - floor(src),
separably along H and W. The kernel attribute `scales` holds [ratioH, ratioW], the reciprocal of
the aclnn scales (op_host/upsample_bilinear2d_l0.cpp pushes 1 / scalesH); a ratio with
out == in is 1 (op_host/upsample_bilinear2d.cpp compute_scale_value). Computed in float64 as
y = Wh @ x @ Ww^T with the [out, in] interpolation matrices; the runner rounds to y's dtype.
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



def upsample_bilinear2d_golden(x, size=None, y=None, align_corners=False, scales=None, **_attrs):
    v = np.asarray(x["value"], dtype=np.float64)
    oh, ow = int(y["shape"][2]), int(y["shape"][3])
    sh, sw = (list(scales) + [0.0, 0.0])[:2] if scales else (0.0, 0.0)
    wh = linear_matrix(v.shape[2], oh, bool(align_corners), sh)
    ww = linear_matrix(v.shape[3], ow, bool(align_corners), sw)
    return np.einsum("oh,nchw,pw->ncop", wh, v, ww)
