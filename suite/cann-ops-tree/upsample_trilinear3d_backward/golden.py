"""Golden for UpsampleTrilinear3dBackward (cann-ops src/image/upsample_trilinear3d_backward).

Documented semantics (docs/aclnnUpsampleTrilinear3dBackward.md): the backward of
aclnnUpsampleTrilinear3d. The forward (docs/aclnnUpsampleTrilinear3d.md, PyTorch's trilinear)
is separable: per axis, output index p reads the source coordinate
    q = p * scale                          align_corners = true,  scale = (in - 1) / (out - 1)
                                           (0 when out == 1)
    q = max(0, (p + 0.5) * scale - 0.5)    align_corners = false, scale = in / out, or the scale
                                           attribute when positive (the aclnn layer passes
                                           1 / its scales: op_host/aclnn_upsample_trilinear_3d_backward.cpp)
and mixes x0 = floor(q) and x1 = min(x0 + 1, in - 1) with weights 1 - l and l (l = q - x0); an
axis whose size does not change is copied. With M_axis the out x in weight matrix of each axis,
forward = M_d (x) M_h (x) M_w, so grad_input = grad_output contracted with the transposed
matrices. "in" is grad_input's D, H, W, "out" grad_output's. Everything in float64.
"""
import numpy as np


def _weights(out_size, in_size, align_corners, attr_scale):
    m = np.zeros((out_size, in_size), np.float64)
    p = np.arange(out_size, dtype=np.float64)
    if in_size == out_size:
        q = p
    elif align_corners:
        scale = (in_size - 1) / (out_size - 1) if out_size > 1 else 0.0
        q = p * scale
    else:
        s = float(np.float32(attr_scale or 0.0))
        scale = s if s > 0.0 else in_size / out_size
        q = np.maximum((p + 0.5) * scale - 0.5, 0.0)
    x0 = np.minimum(np.floor(q).astype(np.int64), in_size - 1)
    x1 = np.minimum(x0 + 1, in_size - 1)
    lam = q - x0
    rows = np.arange(out_size)
    np.add.at(m, (rows, x0), 1.0 - lam)
    np.add.at(m, (rows, x1), lam)
    return m


def upsample_trilinear3d_backward_golden(grad_output, grad_input, output_size=None, input_size=None,
                                         align_corners=False, scale_d=0.0, scale_h=0.0,
                                         scale_w=0.0, **_):
    g = np.asarray(grad_output["value"], np.float64)
    d, h, w = (int(s) for s in grad_input["shape"][2:])
    _, _, od, oh, ow = g.shape
    ac = bool(align_corners)
    g = np.einsum("pd,ncphw->ncdhw", _weights(od, d, ac, scale_d), g)
    g = np.einsum("ph,ncdpw->ncdhw", _weights(oh, h, ac, scale_h), g)
    g = np.einsum("pw,ncdhp->ncdhw", _weights(ow, w, ac, scale_w), g)
    return g
