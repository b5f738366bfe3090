"""Golden for UpsampleBilinear2dAABackward (cann-ops src/image/upsample_bilinear2d_aa_backward).

Documented semantics (docs/aclnnUpsampleBilinear2dAABackward.md: the backward of
aclnnUpsampleBilinear2dAA). The forward follows docs/aclnnUpsampleBilinear2dAA.md and PyTorch's
antialiased bilinear interpolation: for output index i, centre = scale * (i + 0.5), support =
scale when scale >= 1 else 1, taps j in [int(centre - support + 0.5),
int(centre + support + 0.5)) clipped to the image with triangle weights
max(0, 1 - |j - centre + 0.5| / max(scale, 1)) normalised to sum to 1; scale = (in - 1) /
(out - 1) with align_corners, scales_h when > 0 (the attribute holds 1 / scales:
aclnn_upsample_bilinear2d_aa_backward.cpp), else in / out.
The forward resize is linear, y = Wh @ x @ Ww^T with [out, in] weight matrices per axis, so its
gradient is grad_input = Wh^T @ grad_output @ Ww (each grad_output element is spread back to the
input pixels it was interpolated from, with the same weights). in = grad_input's H and W
(input_size), out = grad_output's (output_size).
Computed in float64; the runner rounds to grad_input's dtype.
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


def _aa_filter_linear(x):
    x = abs(x)
    return 1.0 - x if x < 1.0 else 0.0


def _aa_filter_cubic(x):
    # a = -0.5 with antialiasing (PyTorch's choice, after PIL)
    x = abs(x)
    if x < 1.0:
        return _cubic1(x, -0.5)
    if x < 2.0:
        return _cubic2(x, -0.5)
    return 0.0


def aa_matrix(in_size, out_size, align_corners, scale, kind):
    """[out, in] weights of PyTorch's antialiased interpolation (_upsample_*_aa): a filter of
    support interp_size / 2 (widened by the ratio when downscaling) around the centre
    ratio * (i + 0.5), normalised to sum to 1."""
    interp_size, filt = (2, _aa_filter_linear) if kind == "linear" else (4, _aa_filter_cubic)
    r = _ratio(in_size, out_size, align_corners, scale)
    support = interp_size * 0.5 * r if r >= 1.0 else interp_size * 0.5
    invscale = 1.0 / r if r >= 1.0 else 1.0
    m = np.zeros((out_size, in_size))
    for i in range(out_size):
        center = r * (i + 0.5)
        xmin = max(int(center - support + 0.5), 0)
        xmax = min(int(center + support + 0.5), in_size)
        w = np.array([filt((j - center + 0.5) * invscale) for j in range(xmin, xmax)])
        total = w.sum()
        if total != 0.0:
            w = w / total
        m[i, xmin:xmax] = w
    return m


def _scales(scales_h, scales_w):
    return (0.0 if scales_h is None else float(scales_h)), (0.0 if scales_w is None else float(scales_w))


def upsample_bilinear2d_aa_backward_golden(grad_output, grad_input=None, output_size=None,
                                           input_size=None, align_corners=False, scales_h=None,
                                           scales_w=None, **_attrs):
    g = np.asarray(grad_output["value"], dtype=np.float64)
    ih, iw = int(grad_input["shape"][2]), int(grad_input["shape"][3])
    sh, sw = _scales(scales_h, scales_w)
    wh = aa_matrix(ih, g.shape[2], bool(align_corners), sh, "linear")
    ww = aa_matrix(iw, g.shape[3], bool(align_corners), sw, "linear")
    return np.einsum("oh,ncop,pw->nchw", wh, g, ww)
