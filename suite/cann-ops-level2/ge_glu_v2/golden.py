"""Golden for GeGluV2 (cann-ops src/activation/ge_glu_v2).

Documented semantics (docs/aclnnGeGluV2.md, README.md): a gated linear unit with GELU as the
activation. x is cut in two equal halves along `dim`; `activate_left` (default false) says
which half goes through GELU: false activates the right (second) half, true the left (first).
Outputs, both of x's shape with `dim` halved:
    gelu = GELU(activated half)
    y    = gelu * (the other half)
`approximate` picks the GELU form (docs: "erf/tanh"; op_host/ge_glu_v2.cpp names 0
APPROXIMATE_USING_ERF and 1 APPROXIMATE_USING_TANH, as torch's approximate='none'/'tanh'):
    0: GELU(a) = a/2 * (1 + erf(a / sqrt(2)))
    1: GELU(a) = a/2 * (1 + tanh(sqrt(2/pi) * (a + 0.044715 a^3)))
Computed in float64 (erf from math.erf); the runner rounds to the outputs' dtype.
"""
import math

import numpy as np

_erf = np.vectorize(math.erf, otypes=[np.float64])


def _gelu(a, approximate):
    with np.errstate(over="ignore", invalid="ignore"):
        if approximate == 0:
            return 0.5 * a * (1.0 + _erf(a / math.sqrt(2.0)))
        return 0.5 * a * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (a + 0.044715 * a ** 3)))


def ge_glu_v2_golden(x, y=None, gelu=None, dim=-1, approximate=1, activate_left=False, **_attrs):
    v = np.asarray(x["value"], dtype=np.float64)
    d = -1 if dim is None else int(dim)
    if d < 0:
        d += v.ndim
    if not 0 <= d < v.ndim or v.shape[d] % 2 != 0:
        raise ValueError("dim %r does not name an axis of even size in %s" % (dim, v.shape))
    approx = 1 if approximate is None else int(approximate)
    if approx not in (0, 1):
        raise ValueError("approximate must be 0 (erf) or 1 (tanh), not %r" % approximate)
    left, right = np.split(v, 2, axis=d)
    act, other = (left, right) if activate_left else (right, left)
    g = _gelu(act, approx)
    with np.errstate(invalid="ignore", over="ignore"):
        return [g * other, g]
