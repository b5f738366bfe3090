"""Golden for Cast (cann-ops src/math/cast): y = x converted to the dtype dst_type names.

Semantics (docs/Cast.md, with the rounding the kernel requests where the docs are silent):
- to float16 / float32 / bfloat16: the value rounded to nearest (ties to even) in the target
  dtype, done here by the runner from the exact float64 value.
- float to integer: truncation toward zero (the docs' float16 -> int8 recipe starts with a
  conversion to int16 and the kernel requests RoundMode::CAST_TRUNC for every float -> integer).
- to int8 / uint8 (and any other integer target a value does not fit): wrap-around modulo 2^bits,
  as the docs describe for float16 -> int8 ("mod 256, +128, mod 256, -128"; "other types
  similarly"); int8 <-> uint8 <-> bool reinterpret the byte. The cases keep sources headed for
  int16 / int32 / int64 inside the target range and sources headed for int8 / uint8 inside the
  int16 range, where the kernel's intermediate int16 holds them.
- to bool: x != 0 (docs: absolute value, min with 1, rounded up; any nonzero value is True).
Non-finite floats have no integer value; the golden refuses them for integer targets.
"""
import numpy as np

_FLOATS = ("float16", "float32", "bfloat16")
_INT_BITS = {"int8": (8, True), "uint8": (8, False), "int16": (16, True), "int32": (32, True),
             "int64": (64, True)}
# ge::DataType codes of the targets, to check dst_type against y's dtype.
_GE_CODE = {"float32": 0, "float16": 1, "int8": 2, "int32": 3, "uint8": 4, "int16": 6, "int64": 9,
            "bool": 12, "bfloat16": 27}


def _wrap(v, bits, signed):
    if bits == 64:
        return v
    m = np.int64(1) << bits
    r = np.mod(v, m)
    if signed:
        r = np.where(r >= (m >> 1), r - m, r)
    return r


def cast_golden(x, y, dst_type=None, **_):
    src, sdt, ddt = x["value"], x["dtype"], y["dtype"]
    if dst_type is not None and int(dst_type) != _GE_CODE[ddt]:
        raise ValueError("dst_type %r does not name y's dtype %s (code %d)" % (dst_type, ddt, _GE_CODE[ddt]))
    if ddt == "bool":
        return src != 0
    if ddt in _FLOATS:
        return src.astype(np.float64)
    if sdt in _FLOATS:
        f = src.astype(np.float64)
        if not np.all(np.isfinite(f)):
            raise ValueError("a non-finite value has no integer conversion")
        v = np.trunc(f).astype(np.int64)
    else:
        v = src.astype(np.int64)
    bits, signed = _INT_BITS[ddt]
    return _wrap(v, bits, signed).astype(ddt)
