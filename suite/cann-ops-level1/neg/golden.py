"""Golden for Neg (cann-ops src/math/neg).

Documented semantics: y = -x element by element.
- floats: a sign flip (exact; -0.0 for 0.0, NaN stays NaN).
- integers: two's-complement negation in the tensor's own width, so the most negative value
  wraps to itself (-(-128) = -128 in int8). The docs describe the int8 path as computed wider
  and brought back "to handle overflow" as int8 arithmetic would; int32 is plain int32
  arithmetic. The golden returns arrays already in the integer dtype so no later conversion
  saturates them.
"""
import numpy as np

_INT_TYPES = {"int8": np.int8, "int32": np.int32}


def neg_golden(x, y, **_attrs):
    data = x["value"]
    if x["dtype"] in _INT_TYPES:
        return (-data.astype(np.int64)).astype(_INT_TYPES[x["dtype"]])
    return -data.astype(np.float64)
