"""Golden for UpsampleBilinear2dGrad (cann-ops src/image/upsample_bilinear2d_grad).

Documented semantics (docs/aclnnUpsampleBilinear2dBackwardV2.md: the backward of
aclnnUpsampleBilinear2d; outputSize = grad_out's H, W; inputSize = the result's N, C, H, W).
The forward follows docs/aclnnUpsampleBilinear2d.md and PyTorch's upsample_bilinear2d:
src = align_corners ? dst * (in - 1) / (out - 1) : max((dst + 0.5) * scale - 0.5, 0), scale =
scales_h when > 0 (the attribute holds 1 / scales: aclnn_upsample_bilinear2d_grad.cpp) else
in / out, an unchanged axis scale 1; weights 1 - l and l on floor(src) and min(floor(src) + 1,
in - 1).
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


def _scales(scales_h, scales_w):
    return (0.0 if scales_h is None else float(scales_h)), (0.0 if scales_w is None else float(scales_w))


def upsample_bilinear2d_grad_golden(grad_output, grad_input=None, output_size=None, input_size=None,
                                    align_corners=False, scales_h=None, scales_w=None, **_attrs):
    g = np.asarray(grad_output["value"], dtype=np.float64)
    ih, iw = int(grad_input["shape"][2]), int(grad_input["shape"][3])
    sh, sw = _scales(scales_h, scales_w)
    wh = linear_matrix(ih, g.shape[2], bool(align_corners), sh)
    ww = linear_matrix(iw, g.shape[3], bool(align_corners), sw)
    return np.einsum("oh,ncop,pw->nchw", wh, g, ww)
