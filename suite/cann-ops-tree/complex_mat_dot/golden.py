"""Golden for ComplexMatDot (cann-ops src/math/complex_mat_dot).

Documented semantics (docs/aclnnComplexMatDot.md): the element-wise (Hadamard) product of two
complex matrices of m rows and n columns, result_ij = matx_ij * maty_ij, with result shaped like
matx. Computed in complex128 from the complex64 inputs.
"""
import numpy as np


def complex_mat_dot_golden(matx, maty, result=None, m=1, n=1, **_attrs):
    x = np.asarray(matx["value"]).astype(np.complex128)
    y = np.asarray(maty["value"]).astype(np.complex128)
    if x.size != int(m) * int(n) or y.size != x.size:
        raise ValueError("matx and maty must hold m * n = %d elements" % (int(m) * int(n)))
    return [(x.reshape(-1) * y.reshape(-1)).reshape(x.shape)]
