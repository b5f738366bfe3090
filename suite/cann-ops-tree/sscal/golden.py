"""Golden for Sscal (cann-ops src/math/sscal).

Documented semantics (docs/aclnnSscal.md): x = alpha * x for the float32 vector x of n elements
(n is x's element count; incx supports 1), updated in place: the golden returns x's final
contents. alpha is a float attribute (the OpDef's Float, so alpha reaches the kernel as float32);
the product is computed in float64 from float32 alpha and x.
"""
import numpy as np


def sscal_golden(x, alpha=1.0, n=0, incx=1, **_attrs):
    v = np.asarray(x["value"], dtype=np.float64)
    if int(incx) != 1:
        raise ValueError("incx supports 1 only (docs)")
    if int(n) != v.size:
        raise ValueError("n (%d) must be x's element count (%d)" % (int(n), v.size))
    a = float(np.float32(alpha))
    with np.errstate(over="ignore", invalid="ignore"):
        return [v * a]
