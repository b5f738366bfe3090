"""Golden for InplaceAddRmsNorm (cann-ops src/norm/inplace_add_rms_norm).

The operator is AddRmsNorm writing its results into its inputs (README.md; the formula from
docs/aclnnAddRmsNorm.md of src/norm/add_rms_norm, whose code it shares):
    x    = x1 + x2                                   (returned as the output x2, in x1's dtype)
    rstd = 1 / sqrt(mean(x^2) + epsilon)             over the trailing gamma.ndim dimensions
    y    = x * rstd * gamma                          (returned as the output x1)
rstd is the reciprocal of the docs' Rms(x) (its name and float32 dtype, as for RmsNorm). The
normalization takes x as the operator outputs it, i.e. the sum rounded to x1's dtype (the formula
defines y from the tensor x). rstd's shape: x1's leading dimensions, then 1 for every normalized
one. Outputs in OpDef order: x1 (= y), rstd, x2 (= x). Computed in float64.
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


def inplace_add_rms_norm_golden(x1, x2, gamma, rstd=None, epsilon=1e-6, **_attrs):
    dtype = x1["dtype"]
    s = _as_dtype(np.asarray(x1["value"], np.float64) + np.asarray(x2["value"], np.float64), dtype)
    g = np.asarray(gamma["value"], dtype=np.float64)
    axes = tuple(range(s.ndim - g.ndim, s.ndim))
    r = 1.0 / np.sqrt(np.mean(s * s, axis=axes, keepdims=True) + float(epsilon))
    out_y = s * r * g
    out_rstd = r if rstd is None else r.reshape(rstd["shape"])
    return [out_y, out_rstd, s]
