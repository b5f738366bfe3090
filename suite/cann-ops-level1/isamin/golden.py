"""Golden for Isamin (cann-ops src/math/isamin).

Documented semantics (docs/aclnnIsamin.md, README.md): find the smallest element of the real
vector x and return its index; if several are equal, the first one found. x_i are the first n
elements of x taken with stride incx (the docs support incx = 1).

Reading taken: the smallest ABSOLUTE value, 1-based, as the BLAS routine ISAMIN the operator is
named after. The docs' formula, out = argmin_(i=1..n) x_i, omits the absolute value, but the
operator belongs to the BLAS family documented next to it (Icamin documents |Re| + |Im|, which is
|x| for a real x), and the formula's 1-based range i = 1..n matches BLAS. |x| is exact in float32
(-0.0 and +0.0 tie). As in BLAS, n < 1 or incx < 1 gives 0.
"""
import numpy as np


def isamin_golden(x, result=None, n=0, incx=1, **_attrs):
    n, incx = int(n), int(incx)
    shape = result["shape"] if result is not None else [1]
    if n < 1 or incx < 1:
        return np.zeros(shape, dtype=np.int32)
    v = np.asarray(x["value"]).reshape(-1)[: n * incx : incx][:n]
    index = int(np.argmin(np.abs(v.astype(np.float64)))) + 1
    return np.full(shape, index, dtype=np.int32)
