"""Golden for AddRmsNormQuant (cann-ops src/norm/add_rms_norm_quant).

Documented semantics (docs/aclnnAddRmsNormQuant.md, formula section):
    x   = x1 + x2                                       (output x, in x1's dtype)
    y   = x / Rms(x) * gamma,  Rms(x) = sqrt(mean(x^2) + epsilon)   over gamma's dimensions
    y1  = round(y / scales1 + zero_points1)             (div_mode true, the only supported mode)
y2 is reserved (the docs: not used, random contents); the kernel never writes it, and the golden
returns None for it (unwritten by contract: neither compared nor required). The normalization takes
x as the operator outputs it, the sum rounded to x1's dtype (the formula defines y from the tensor
x). round() halves to even; values past the int8 range are clipped (the docs do not say; no case
reaches them). Computed in float64.
"""
import numpy as np

_ROUND = {"float16": np.float16, "float32": np.float32}


def _as_dtype(v, dtype):
    """v rounded to a 16- or 32-bit float dtype (bfloat16: round to nearest even on the top 16 bits)."""
    if dtype == "bfloat16":
        f = np.asarray(v, dtype=np.float32)
        bits = f.view(np.uint32).astype(np.uint64)
        rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) << 16
        out = rounded.astype(np.uint32).view(np.float32)
        return np.where(np.isnan(f), f, out).astype(np.float64)
    return np.asarray(v).astype(_ROUND[dtype]).astype(np.float64)


def add_rms_norm_quant(x1, x2, gamma, scales1, zero_points1=None, bias=None, epsilon=1e-6):
    s = _as_dtype(np.asarray(x1["value"], np.float64) + np.asarray(x2["value"], np.float64), x1["dtype"])
    g = np.asarray(gamma["value"], np.float64)
    axes = tuple(range(s.ndim - g.ndim, s.ndim))
    y = s / np.sqrt(np.mean(s * s, axis=axes, keepdims=True) + float(epsilon)) * g
    if bias is not None:
        y = y + np.asarray(bias["value"], np.float64)
    q = y / np.asarray(scales1["value"], np.float64)
    if zero_points1 is not None:
        q = q + np.asarray(zero_points1["value"], np.float64)
    y1 = np.clip(np.round(q), -128, 127)
    return [y1, None, s]


def add_rms_norm_quant_golden(x1, x2, gamma, scales1, scales2=None, zero_points1=None, zero_points2=None,
                              y1=None, y2=None, x=None, epsilon=1e-6, **_attrs):
    return add_rms_norm_quant(x1, x2, gamma, scales1, zero_points1, None, epsilon)
