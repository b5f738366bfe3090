"""Golden for Sasum (cann-ops src/math/sasum).

Documented semantics (docs/aclnnSasum.md): the sum of the absolute values of the float32 vector
x of n elements (n is x's element count; incx supports 1),
    result = sum_i |x_i|,
a float32 tensor of one element. Computed in float64.
"""
import numpy as np


def sasum_golden(x, result=None, n=0, incx=1, **_attrs):
    v = np.asarray(x["value"], dtype=np.float64).reshape(-1)
    if int(incx) != 1:
        raise ValueError("incx supports 1 only (docs)")
    if int(n) != v.size:
        raise ValueError("n (%d) must be x's element count (%d)" % (int(n), v.size))
    r = np.asarray([np.sum(np.abs(v))])
    return [r.reshape(result["shape"]) if result is not None else r]
