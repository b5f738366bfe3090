"""Golden for Muls (cann-ops src/math/muls).

Documented semantics: y = x * value, value a float32 scalar, y of x's dtype.
- float dtypes: the exact product rounded once to the output dtype (the comparison rounds).
  The fp16 kernel multiplies by value already rounded to fp16; with the tolerance
  (rtol = atol = 1e-3) this differs from the formula by less than the allowed error.
- complex64: both the real and the imaginary part are multiplied by value.
- integers: the docs are silent on rounding a fractional product; the kernel computes in
  float32 and converts back with RoundMode::CAST_RINT, i.e. to nearest, ties to even, which
  is what this golden does (np.rint). Cases keep products well inside the integer range.
"""
import numpy as np

_INT_TYPES = {"int16": np.int16, "int32": np.int32, "int64": np.int64}


def muls_golden(x, value, y, **_attrs):
    scalar = float(np.asarray(value["value"], dtype=np.float64).reshape(-1)[0])
    data = x["value"]
    dtype = x["dtype"]
    if dtype == "complex64":
        return data.astype(np.complex128) * scalar
    if dtype in _INT_TYPES:
        product = data.astype(np.float64) * scalar
        return np.rint(product).astype(np.int64).astype(_INT_TYPES[dtype])
    return data.astype(np.float64) * scalar
