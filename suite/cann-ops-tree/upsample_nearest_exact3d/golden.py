"""Golden for UpsampleNearestExact3d (cann-ops src/image/upsample_nearest_exact3d).

Documented semantics (docs/aclnnUpsampleNearestExact3d.md, the formula): x is [N, C, D, H, W];
for each of D, H, W the output index p takes the input index
    q = min(floor((p + 0.5) * scale), in_size - 1)
with scale = in_size / out_size (PyTorch's nearest-exact), and
y[n, c, pd, ph, pw] = x[n, c, qd, qh, qw].
The operator's scale_d / scale_h / scale_w attributes, when positive, replace in_size / out_size:
they are the reciprocals of aclnn's scalesD/H/W (op_host/aclnn_upsample_nearest_exact3d.cpp
passes 1 / scales), i.e. PyTorch's src = floor((dst + 0.5) / scale_factor).
The index is computed exactly: with integers ((2p + 1) * in) // (2 * out) for the size ratio,
and in float64 with the attribute's float32 value otherwise. A pure gather: the output is exact.
"""
import numpy as np


def _src_index(out_size, in_size, attr_scale):
    p = np.arange(out_size, dtype=np.int64)
    s = float(np.float32(attr_scale or 0.0))
    if s > 0.0:
        q = np.floor((p.astype(np.float64) + 0.5) * s).astype(np.int64)
    else:
        q = ((2 * p + 1) * in_size) // (2 * out_size)
    return np.minimum(q, in_size - 1)


def upsample_nearest_exact3d_golden(x, y, output_size=None, scale_d=0.0, scale_h=0.0, scale_w=0.0,
                                    **_):
    v = np.asarray(x["value"], np.float64)
    od, oh, ow = (int(s) for s in y["shape"][2:])
    _, _, d, h, w = v.shape
    qd = _src_index(od, d, scale_d)
    qh = _src_index(oh, h, scale_h)
    qw = _src_index(ow, w, scale_w)
    return v[:, :, qd][:, :, :, qh][:, :, :, :, qw]
