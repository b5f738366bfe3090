"""Golden for Scopy (cann-ops src/math/scopy).

Documented semantics (docs/aclnnScopy.md): y = x for the float32 vector x of n elements
(n is x's element count; incx and incy support 1). y has x's shape.
"""
import numpy as np


def scopy_golden(x, y=None, n=0, incx=1, incy=1, **_attrs):
    v = np.asarray(x["value"])
    if int(incx) != 1 or int(incy) != 1:
        raise ValueError("incx and incy support 1 only (docs)")
    if int(n) != v.size:
        raise ValueError("n (%d) must be x's element count (%d)" % (int(n), v.size))
    return [np.array(v, dtype=np.float32, copy=True)]
