"""Golden for Scasum (cann-ops src/math/scasum).

Documented semantics (docs/aclnnScasum.md): for the complex64 vector x of n elements (n is x's
element count; incx supports 1),
    result = sum_i (|Re(x_i)| + |Im(x_i)|),
a float32 tensor of one element (not the complex modulus: the BLAS scasum definition the docs
give). Computed in float64.
"""
import numpy as np


def scasum_golden(x, result=None, n=0, incx=1, **_attrs):
    v = np.asarray(x["value"]).astype(np.complex128).reshape(-1)
    if int(incx) != 1:
        raise ValueError("incx supports 1 only (docs)")
    if int(n) != v.size:
        raise ValueError("n (%d) must be x's element count (%d)" % (int(n), v.size))
    r = np.asarray([np.sum(np.abs(v.real)) + np.sum(np.abs(v.imag))])
    return [r.reshape(result["shape"]) if result is not None else r]
