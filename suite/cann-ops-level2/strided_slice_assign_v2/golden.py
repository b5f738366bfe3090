"""Golden for StridedSliceAssignV2 (cann-ops src/conversion/strided_slice_assign_v2).

Documented semantics (docs/aclnnStridedSliceAssignV2.md): var is updated in place, the strided
slice var[begin[0]:end[0]:strides[0], ...] taking the values of input_value (Python slicing
with positive strides). begin and end are adjusted first (docs, "约束与限制"): a negative value
has the axis size added, then is clamped to [0, size]. input_value's shape is
ceil((end - begin) / strides) per axis. With `axes`, begin / end / strides give the listed axes
and every other axis is taken whole with stride 1 (the operator's tiling, AdjustWithAxes).
The copy is exact.
"""
import numpy as np


def strided_slice_assign_v2_golden(var, input_value, begin, end, strides, axes=None, **_attrs):
    v = np.array(var["value"], copy=True)
    iv = np.asarray(input_value["value"])
    b = [int(t) for t in np.asarray(begin["value"]).reshape(-1)]
    e = [int(t) for t in np.asarray(end["value"]).reshape(-1)]
    s = [int(t) for t in np.asarray(strides["value"]).reshape(-1)]
    nd = v.ndim
    if axes is not None and axes.get("value") is not None:
        ax = [int(t) for t in np.asarray(axes["value"]).reshape(-1)]
        fb, fe, fs = [0] * nd, list(v.shape), [1] * nd
        for i, a in enumerate(ax):
            fb[a], fe[a], fs[a] = b[i], e[i], s[i]
        b, e, s = fb, fe, fs
    if not len(b) == len(e) == len(s) == nd:
        raise ValueError("begin / end / strides must give every axis of var %s" % (v.shape,))
    sl = []
    for d in range(nd):
        n = v.shape[d]
        bb = b[d] + n if b[d] < 0 else b[d]
        ee = e[d] + n if e[d] < 0 else e[d]
        bb, ee = min(max(bb, 0), n), min(max(ee, 0), n)
        if s[d] <= 0:
            raise ValueError("strides must be positive")
        sl.append(slice(bb, ee, s[d]))
    target = v[tuple(sl)]
    if target.shape != iv.shape:
        raise ValueError("input_value %s does not match the slice %s" % (iv.shape, target.shape))
    v[tuple(sl)] = iv
    return v
