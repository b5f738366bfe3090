"""Golden for AddCustom (cann-ops src/math/add_custom): z = x + y, element-wise.

The docs describe float16 only; the OpDef also declares float32, int32 and int8. Floats: the exact
sum in float64, rounded once to the output dtype by the runner (one IEEE add). Integers: two's
complement wrap-around to the dtype's width (the int8 kernel reduces the sum to 8 bits explicitly;
the int32 cases stay inside the int32 range, so no wrap is exercised there).
"""
import numpy as np

_INT_BITS = {"int8": 8, "int32": 32}


def _wrap(v, bits):
    v = np.asarray(v, dtype=np.int64)
    half = np.int64(1) << (bits - 1)
    return ((v + half) % (np.int64(1) << bits)) - half


def add_custom_golden(x, y, z=None, **_):
    dt = x["dtype"]
    if dt in _INT_BITS:
        s = x["value"].astype(np.int64) + y["value"].astype(np.int64)
        return _wrap(s, _INT_BITS[dt]).astype(dt)
    return x["value"].astype(np.float64) + y["value"].astype(np.float64)
