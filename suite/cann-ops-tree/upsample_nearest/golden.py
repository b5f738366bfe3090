"""Golden for UpsampleNearest (cann-ops src/image/upsample_nearest).

Documented semantics (docs/aclnnUpsampleNearestExact1d.md and aclnnUpsampleNearestExact2d.md,
the formulas): along each resized axis the output index p takes the input index
    q = min(floor((p + 0.5) * scale), in_size - 1)      exact_mode = true (nearest-exact)
    q = min(floor(p * scale), in_size - 1)              exact_mode = false (PyTorch's nearest)
with scale = in_size / out_size, or the scale attribute when it is positive (the aclnn layer
passes 1 / scales, so the attribute is the in/out ratio itself).
Layouts (op_host/upsample_nearest_tiling.cpp reads them from x's format): a 4-D x in the NCHW
format resizes axes 2 and 3; any other 4-D x is NHWC (axes 1 and 2, as the aclnn layer gives
it after transposing); a 3-D x is NLC (axis 1, whose scale attribute is scales_h).
The index is exact: integers for the size ratio, float64 with the attribute's float32 value
otherwise. A pure gather: the output is exact.
"""
import numpy as np


def _src_index(out_size, in_size, attr_scale, exact):
    p = np.arange(out_size, dtype=np.int64)
    s = float(np.float32(attr_scale or 0.0))
    if s > 0.0:
        q = np.floor((p.astype(np.float64) + (0.5 if exact else 0.0)) * s).astype(np.int64)
    elif exact:
        q = ((2 * p + 1) * in_size) // (2 * out_size)
    else:
        q = (p * in_size) // out_size
    return np.minimum(q, in_size - 1)


def upsample_nearest_golden(x, y, output_size=None, scales_h=0.0, scales_w=0.0, exact_mode=False,
                            nchw=False, **_):
    v = np.asarray(x["value"], np.float64)
    out_shape = [int(s) for s in y["shape"]]
    if v.ndim == 3:
        axes, scales = [1], [scales_h]
    elif nchw or x.get("format") == "NCHW":
        axes, scales = [2, 3], [scales_h, scales_w]
    else:
        axes, scales = [1, 2], [scales_h, scales_w]
    for axis, s in zip(axes, scales):
        q = _src_index(out_shape[axis], v.shape[axis], s, bool(exact_mode))
        v = np.take(v, q, axis=axis)
    return v


def upsample_nearest_nchw_golden(**kw):
    """The NCHW cases name this golden: ascendopt's golden runner gives every tensor the format
    "ND" (share/golden_runner.py), whatever the case's format says."""
    return upsample_nearest_golden(nchw=True, **kw)
