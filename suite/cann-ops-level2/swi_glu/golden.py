"""Golden for SwiGlu (cann-ops src/activation/swi_glu).

Documented semantics (docs/aclnnSwiGlu.md, README.md): x is cut in two equal halves along the
axis `dim` (default -1; the axis' size must be even): A is the first half, B the second, and
    y = Swish(A) * B,   Swish(a) = a * sigmoid(a) = a / (1 + exp(-a))
(Swish with beta = 1, i.e. SiLU, as torch's swiglu recipes use it). y has x's shape with that
axis halved. Computed in float64; the runner rounds to y's dtype.
"""
import numpy as np


def _silu(a):
    with np.errstate(over="ignore", invalid="ignore"):
        return a / (1.0 + np.exp(-a))


def swi_glu_golden(x, y=None, dim=-1, **_attrs):
    v = np.asarray(x["value"], dtype=np.float64)
    d = -1 if dim is None else int(dim)
    if d < 0:
        d += v.ndim
    if not 0 <= d < v.ndim or v.shape[d] % 2 != 0:
        raise ValueError("dim %r does not name an axis of even size in %s" % (dim, v.shape))
    a, b = np.split(v, 2, axis=d)
    with np.errstate(invalid="ignore", over="ignore"):
        return _silu(a) * b
