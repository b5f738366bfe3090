"""Golden for GeluQuant (cann-ops src/activation/gelu_quant).

Documented semantics (docs/aclnnGeluQuant.md):
    g = Gelu(x, approximate)     "none": x / 2 * (1 + erf(x / sqrt(2)));
                                 "tanh": x / 2 * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 x^3)))
    static:  y = Round(g * scale + offset).clip(-128, 127)
    dynamic: t = g * scale (scale optional: t = g without it), per row of the last dimension
             out_scale = max|t| / 127 and y = Round(t * 127 / max|t|)
scale and offset hold one value or one per index of x's last dimension. out_scale is defined for
dynamic quantization only (static quantization uses the caller's scale): the golden returns None
for it in static mode (unwritten by contract, docs/operators.md). Round() halves to even (the
docs do not say). Computed in float64 from the inputs as stored.
"""
import math

import numpy as np

_erf = np.vectorize(math.erf)


def _gelu(x, approximate):
    if str(approximate) == "tanh":
        return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))
    return 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)))


def _value(t):
    return None if t is None or t.get("value") is None else np.asarray(t["value"], np.float64).reshape(-1)


def gelu_quant_golden(x, input_scale=None, input_offset=None, y=None, out_scale=None, approximate="none",
                      quant_mode="dynamic", **_attrs):
    xv = np.asarray(x["value"], np.float64)
    g = _gelu(xv, approximate)
    scale, offset = _value(input_scale), _value(input_offset)
    t = g if scale is None else g * (scale[0] if scale.size == 1 else scale)
    if str(quant_mode) == "static":
        if offset is not None:
            t = t + (offset[0] if offset.size == 1 else offset)
        return [np.clip(np.rint(t), -128, 127), None]
    peak = np.abs(t).max(axis=-1, keepdims=True)
    return [np.clip(np.rint(t * 127.0 / peak), -128, 127), (peak / 127.0).reshape(xv.shape[:-1])]
