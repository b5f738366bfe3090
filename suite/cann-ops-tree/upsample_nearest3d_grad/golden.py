"""Golden for UpsampleNearest3dGrad (cann-ops src/image/upsample_nearest3d_grad).

Documented semantics (docs/aclnnUpsampleNearest3dBackward.md): the backward of
aclnnUpsampleNearest3d. The forward copies x[n, c, qd, qh, qw] to every output position
(pd, ph, pw) with, per axis (docs/aclnnUpsampleNearest3d.md and PyTorch's nearest rule),
    q = min(floor(p * in / out), in - 1)          without scales
    q = min(floor(p / scale), in - 1)             with a positive scale (aclnn's scales, the
                                                  out/in multiplier, passed to this operator
                                                  unchanged: op_host/aclnn_upsample_nearest_3d_backward.cpp)
so its gradient sums grad_output over all output positions that copy the same input element:
    y[n, c, i, j, k] = sum of grad_output[n, c, pd, ph, pw] over qd = i, qh = j, qw = k.
Here "in" is input_size (y's D, H, W) and "out" grad_output's D, H, W. The sums are taken in
float64 (the runner rounds the result to y's dtype); indices exactly (integers for the size
ratio, float64 from the attribute's float32 value otherwise).
"""
import numpy as np


def _src_index(out_size, in_size, scale):
    p = np.arange(out_size, dtype=np.int64)
    s = float(np.float32(scale))
    if s > 0.0:
        q = np.floor(p.astype(np.float64) / s).astype(np.int64)
    else:
        q = (p * in_size) // out_size
    return np.minimum(q, in_size - 1)


def _scatter_axis(g, axis, q, in_size):
    moved = np.moveaxis(g, axis, 0)
    out = np.zeros((in_size,) + moved.shape[1:], np.float64)
    np.add.at(out, q, moved)
    return np.moveaxis(out, 0, axis)


def upsample_nearest3d_grad_golden(grad_output, y, input_size, output_size=None, scales=None, **_):
    g = np.asarray(grad_output["value"], np.float64)
    sc = list(scales) if scales else [0.0, 0.0, 0.0]
    for k in range(3):
        axis = 2 + k
        in_size = int(input_size[axis])
        q = _src_index(g.shape[axis], in_size, sc[k])
        g = _scatter_axis(g, axis, q, in_size)
    return g
