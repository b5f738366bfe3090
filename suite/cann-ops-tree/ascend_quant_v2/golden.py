"""Golden for AscendQuantV2 (cann-ops src/quant/ascend_quant_v2).

Documented semantics (docs/aclnnAscendQuant.md): y = round(x * scale + offset), with sqrt_mode
y = round(x * scale * scale + offset); round_mode picks the rounding of the cast to int8: round,
floor, ceil or trunc. scale and offset are one value, or one per index of x along `axis` (the
last dimension by default): 1-D of that length, or of x's rank with 1 everywhere but `axis`.
offset is optional and shaped like scale. "round" rounds halves to even, as the kernel's cast
(CAST_RINT) does; the docs do not say. Values past the int8 range saturate (no case reaches
them). Computed in float64 from the inputs as stored.
"""
import numpy as np

_ROUNDING = {"round": np.rint, "floor": np.floor, "ceil": np.ceil, "trunc": np.trunc}


def _along(t, x_ndim, axis):
    """t shaped to broadcast against x: a 1-D tensor lies along `axis`."""
    v = np.asarray(t["value"], np.float64)
    if v.ndim != 1 or v.size == 1:
        return v.reshape(-1)[0] if v.size == 1 else v
    shape = [1] * x_ndim
    shape[axis % x_ndim] = v.size
    return v.reshape(shape)


def ascend_quant_v2_golden(x, scale, offset=None, y=None, sqrt_mode=False, round_mode="round", dst_type=2,
                           axis=-1, **_attrs):
    xv = np.asarray(x["value"], np.float64)
    s = _along(scale, xv.ndim, int(axis))
    t = xv * s * s if sqrt_mode else xv * s
    if offset is not None and offset.get("value") is not None:
        t = t + _along(offset, xv.ndim, int(axis))
    return [np.clip(_ROUNDING[str(round_mode)](t), -128, 127)]
