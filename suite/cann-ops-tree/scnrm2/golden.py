"""Golden for Scnrm2 (cann-ops src/math/scnrm2).

Documented semantics (docs/aclnnScnrm2.md): the Euclidean norm of the complex64 vector x of n
elements (n is x's element count; incx supports 1),
    result = sqrt(sum_i |x_i|^2),  |x_i| = sqrt(Re(x_i)^2 + Im(x_i)^2),
a float32 tensor of one element. Computed in float64.
"""
import numpy as np


def scnrm2_golden(x, result=None, n=0, incx=1, **_attrs):
    v = np.asarray(x["value"]).astype(np.complex128).reshape(-1)
    if int(incx) != 1:
        raise ValueError("incx supports 1 only (docs)")
    if int(n) != v.size:
        raise ValueError("n (%d) must be x's element count (%d)" % (int(n), v.size))
    r = np.asarray([np.sqrt(np.sum(v.real * v.real + v.imag * v.imag))])
    return [r.reshape(result["shape"]) if result is not None else r]
