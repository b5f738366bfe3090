"""Golden for UpsampleBicubic2dGrad (cann-ops src/image/upsample_bicubic2d_grad).

Documented semantics (docs/aclnnUpsampleBicubic2dBackward.md: the backward of
aclnnUpsampleBicubic2d). The forward follows docs/aclnnUpsampleBicubic2d.md and PyTorch's
upsample_bicubic2d: cubic convolution, a = -0.75, four taps floor(src) - 1 .. floor(src) + 2
clamped to the image, src = align_corners ? dst * (in - 1) / (out - 1) : (dst + 0.5) * scale - 0.5.
Here scales_h / scales_w hold the resolved ratio (aclnn_upsample_bicubic_2d_backward.cpp
computeScale passes (in - 1) / (out - 1), 1 / scales or in / out); the golden uses a positive
ratio as given (and in / out for 0); an unchanged axis has ratio 1.
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


def upsample_bicubic2d_grad_golden(grad_output, grad_input=None, align_corners=False,
                                   scales_h=None, scales_w=None, **_attrs):
    g = np.asarray(grad_output["value"], dtype=np.float64)
    ih, iw = int(grad_input["shape"][2]), int(grad_input["shape"][3])
    sh, sw = _scales(scales_h, scales_w)
    wh = cubic_matrix(ih, g.shape[2], bool(align_corners), sh)
    ww = cubic_matrix(iw, g.shape[3], bool(align_corners), sw)
    return np.einsum("oh,ncop,pw->nchw", wh, g, ww)
