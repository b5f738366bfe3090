"""Golden for UpsampleBicubic2d (cann-ops src/image/upsample_bicubic2d).

Documented semantics (docs/aclnnUpsampleBicubic2d.md: out(N, C, h, w) = sum over a 4 x 4
neighbourhood of W(i) * W(j) * f(h_i, w_j), the cubic convolution kernel W with a = -0.75, and
    scale = (in - 1) / (out - 1)   align_corners
            1 / scales             scales > 0
            in / out               otherwise).
Where the docs stop (the source coordinate, the border) the golden follows PyTorch's
upsample_bicubic2d, which they describe: src = align_corners ? dst * scale
: (dst + 0.5) * scale - 0.5 (not clamped), taps floor(src) - 1 .. floor(src) + 2 clamped to the
image, t = src - floor(src). The kernel attributes scales_h / scales_w already hold the
reciprocal 1 / scales (aclnn_upsample_bicubic2d.cpp passes 1.0 / scalesH), 0 meaning in / out;
an axis whose size does not change has scale 1 (op_host/upsample_bicubic2d.cpp
compute_scale_value). Computed in float64 as Wh @ x @ Ww^T; the runner rounds to the dtype.
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


def _cubic1(x, a):
    return ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0


def _cubic2(x, a):
    return ((a * x - 5.0 * a) * x + 8.0 * a) * x - 4.0 * a


def cubic_matrix(in_size, out_size, align_corners=False, scale=None, a=-0.75):
    """[out, in] weights of PyTorch's bicubic interpolation (a = -0.75, border pixels repeated)."""
    r = _ratio(in_size, out_size, align_corners, scale)
    m = np.zeros((out_size, in_size))
    for i in range(out_size):
        src = r * i if align_corners else r * (i + 0.5) - 0.5
        f = int(math.floor(src))
        t = src - f
        w = (_cubic2(t + 1.0, a), _cubic1(t, a), _cubic1(1.0 - t, a), _cubic2(2.0 - t, a))
        for k in range(4):
            m[i, min(max(f - 1 + k, 0), in_size - 1)] += w[k]
    return m


def _scales(scales_h, scales_w):
    return (0.0 if scales_h is None else float(scales_h)), (0.0 if scales_w is None else float(scales_w))


def upsample_bicubic2d_golden(input, output=None, output_size=None, align_corners=False,
                              scales_h=None, scales_w=None, **_attrs):
    v = np.asarray(input["value"], dtype=np.float64)
    oh, ow = int(output["shape"][2]), int(output["shape"][3])
    sh, sw = _scales(scales_h, scales_w)
    wh = cubic_matrix(v.shape[2], oh, bool(align_corners), sh)
    ww = cubic_matrix(v.shape[3], ow, bool(align_corners), sw)
    return np.einsum("oh,nchw,pw->ncop", wh, v, ww)
