"""Golden for Gcd (cann-ops src/math/gcd).

Documented semantics (docs/Gcd.md): y = gcd(x1, x2), the greatest common divisor of the two
integer tensors elementwise, with broadcasting, up to 5 dimensions, int16 / int32 / int64.
Where the docs are silent the golden follows torch.gcd / numpy.gcd: the result is non-negative,
gcd(a, 0) = |a| and gcd(0, 0) = 0; x2 broadcasts against x1 (numpy rules; y has x1's shape, as
InferShape gives it). Computed exactly with Python integers. The most negative value of each
dtype has no non-negative gcd with 0 in the dtype, and no case uses it.
"""
import math

import numpy as np


def gcd_golden(x1, x2, y=None, **_attrs):
    a = np.asarray(x1["value"])
    b = np.asarray(x2["value"])
    a, b = np.broadcast_arrays(a, b)
    out = np.frompyfunc(lambda p, q: math.gcd(int(p), int(q)), 2, 1)(a, b)
    return np.asarray(out, dtype=np.int64).astype(x1["dtype"])
