"""Golden for Icamax (cann-ops src/math/icamax).

Documented semantics (docs/aclnnIcamax.md): out = argmax over i = 1..n of |Re(x_i)| + |Im(x_i)|,
a 1-based index (the formula counts from 1, as BLAS ICAMAX does); on equal sums the first element
found wins. x_i are the first n elements of x taken with stride incx (the docs support incx = 1).
The sums are formed in float32, the precision of complex64's parts and of single-precision BLAS,
so two sums that round to the same float32 are a tie. As in BLAS, n < 1 or incx < 1 gives 0.
"""
import numpy as np


def _elements(x, n, incx):
    v = np.asarray(x["value"]).reshape(-1)
    return v[: n * incx : incx][:n]


def _one(index, result):
    shape = result["shape"] if result is not None else [1]
    return np.full(shape, index, dtype=np.int32)


def icamax_golden(x, result=None, n=0, incx=1, **_attrs):
    n, incx = int(n), int(incx)
    if n < 1 or incx < 1:
        return _one(0, result)
    v = _elements(x, n, incx).astype(np.complex64)
    sums = np.abs(v.real).astype(np.float32) + np.abs(v.imag).astype(np.float32)
    return _one(int(np.argmax(sums)) + 1, result)
