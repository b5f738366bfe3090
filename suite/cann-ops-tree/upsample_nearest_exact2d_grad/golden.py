"""Golden for UpsampleNearestExact2dGrad (cann-ops src/image/upsample_nearest_exact2d_grad).

Documented semantics (docs/aclnnUpsampleNearestExact2dBackward.md, the formula): the backward of
aclnnUpsampleNearestExact2d on NCHW tensors, grad_input[n, c, qh, qw] += grad_output[n, c, ph, pw]
with, per axis, the forward's nearest-exact source index (PyTorch's nearest-exact rule, the
formula of docs/aclnnUpsampleNearestExact2d.md in the upsample_nearest folder)
    q = min(floor((p + 0.5) * in / out), in - 1)     without a scale
    q = min(floor((p + 0.5) / scale), in - 1)        with a positive scales_h / scales_w (aclnn's
                                                     out/in multipliers, passed unchanged by
                                                     op_host/aclnn_upsample_nearest_exact2d_backward.cpp)
"in" is input_size's H, W (grad_input) and "out" grad_output's H, W. Sums in float64 (the
runner rounds to grad_input's dtype); indices exactly (integers for the size ratio, float64 from
the attribute's float32 value otherwise).
"""
import numpy as np


def _src_index(out_size, in_size, scale):
    p = np.arange(out_size, dtype=np.int64)
    s = float(np.float32(scale or 0.0))
    if s > 0.0:
        q = np.floor((p.astype(np.float64) + 0.5) / s).astype(np.int64)
    else:
        q = ((2 * p + 1) * in_size) // (2 * out_size)
    return np.minimum(q, in_size - 1)


def _scatter_axis(g, axis, q, in_size):
    moved = np.moveaxis(g, axis, 0)
    out = np.zeros((in_size,) + moved.shape[1:], np.float64)
    np.add.at(out, q, moved)
    return np.moveaxis(out, 0, axis)


def upsample_nearest_exact2d_grad_golden(grad_output, grad_input, input_size, output_size=None,
                                         scales_h=0.0, scales_w=0.0, **_):
    g = np.asarray(grad_output["value"], np.float64)
    for axis, s in ((2, scales_h), (3, scales_w)):
        in_size = int(input_size[axis])
        g = _scatter_axis(g, axis, _src_index(g.shape[axis], in_size, s), in_size)
    return g
