"""Golden for FakeQuantAffineCachemask (cann-ops src/quant/fake_quant_affine_cachemask).

Documented semantics (docs/aclnnFakeQuantPerTensorAffineCachemask.md), with scale[i] and
zero_point[i] applied to slice i of x along axis 0 (the operator's inputs hold x.shape[0] values;
the aclnn API broadcasts its one-element scale and zero point to them):
    qval = nearbyint(x / scale) + zero_point          (round half to even)
    y    = (min(quant_max, max(quant_min, qval)) - zero_point) * scale
    mask = (qval >= quant_min) & (qval <= quant_max)
Computed in float64 from the stored scale (x's dtype) and zero point.
"""
import numpy as np


def fake_quant_affine_cachemask_golden(x, scale, zero_point, y=None, mask=None, axis=-1, quant_min=0, quant_max=1,
                                       **_attrs):
    v = np.asarray(x["value"], dtype=np.float64)
    rows = v.shape[0] if v.ndim else 1
    s = np.asarray(scale["value"], dtype=np.float64).reshape(-1)
    z = np.asarray(zero_point["value"], dtype=np.float64).reshape(-1)
    if s.size != rows or z.size != rows:
        raise ValueError("scale and zero_point must have x.shape[0] = %d elements" % rows)
    flat = v.reshape(rows, -1)
    q = np.rint(flat / s[:, None]) + z[:, None]
    qmin, qmax = float(quant_min), float(quant_max)
    out = (np.clip(q, qmin, qmax) - z[:, None]) * s[:, None]
    m = (q >= qmin) & (q <= qmax)
    return [out.reshape(v.shape), m.reshape(v.shape)]
