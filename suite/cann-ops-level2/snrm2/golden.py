"""Golden for Snrm2 (cann-ops src/math/snrm2).

Documented semantics (docs/aclnnSnrm2.md): the Euclidean norm of the real vector x,
    out = sqrt(sum_{i=1..n} |x_i|^2),
over the n elements of x (n is x's element count; incx supports 1). x is float32 with at most
3 dimensions; out is float32 with one element. Computed in float64.
"""
import numpy as np


def snrm2_golden(x, result=None, n=0, incx=1, **_attrs):
    v = np.asarray(x["value"], dtype=np.float64).reshape(-1)
    count = int(n)
    if int(incx) != 1:
        raise ValueError("incx supports 1 only (docs)")
    if count != v.size:
        raise ValueError("n (%d) must be x's element count (%d)" % (count, v.size))
    r = np.sqrt(np.sum(v * v))
    return np.asarray([r]).reshape(result["shape"]) if result is not None else np.asarray([r])
