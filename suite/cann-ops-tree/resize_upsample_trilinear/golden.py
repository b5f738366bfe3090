"""Golden for ResizeUpsampleTrilinear (cann-ops src/image/resize_upsample_trilinear).

Documented semantics (docs/aclnnUpsampleTrilinear3d.md, the formulas): x is [N, C, D, H, W]; per
axis, output index p maps to the source coordinate
    q = p * scale                          align_corners = true,  scale = (in - 1) / (out - 1)
                                           (0 when out == 1)
    q = max(0, (p + 0.5) * scale - 0.5)    align_corners = false, scale = in / out, or the scale
                                           attribute when positive (the aclnn layer passes 1 / its
                                           scales, so the attribute is the in/out ratio itself)
and the value is interpolated linearly between x0 = floor(q) and x1 = min(x0 + 1, in - 1) with
weights 1 - l and l, l = q - x0 (PyTorch's trilinear, the framework the docs follow: the docs'
lambda naming reads the other way round), separably on D, H and W. An axis whose size does not
change is copied (the tiling's scale is 1 then: op_host/resize_upsample_trilinear.cpp).
Everything in float64 (the runner rounds the result to the output dtype).
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


def resize_upsample_trilinear_golden(input, output, output_size=None, align_corners=False,
                                     scales_d=0.0, scales_h=0.0, scales_w=0.0, **_):
    v = np.asarray(input["value"], np.float64)
    od, oh, ow = (int(s) for s in output["shape"][2:])
    _, _, d, h, w = v.shape
    ac = bool(align_corners)
    v = np.einsum("pd,ncdhw->ncphw", _weights(od, d, ac, scales_d), v)
    v = np.einsum("ph,ncdhw->ncdpw", _weights(oh, h, ac, scales_h), v)
    v = np.einsum("pw,ncdhw->ncdhp", _weights(ow, w, ac, scales_w), v)
    return v
