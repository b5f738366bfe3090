"""Golden for SwiGluGrad (cann-ops src/activation/swi_glu_grad): the gradient of SwiGlu.

Forward (docs/aclnnSwiGlu.md of swi_glu): x is cut in halves A, B along `dim`, y = Swish(A) * B
with Swish(a) = a * sigmoid(a). The backward (docs/aclnnSwiGluGrad.md) returns x_grad of x's
shape, its A half and B half being
    x_grad_A = y_grad * (s + s * (1 - s) * A) * B,   s = sigmoid(A)
    x_grad_B = y_grad * s * A
The docs print the A half as s + s * (1 - s * A), a misplaced parenthesis: the derivative of
a * sigmoid(a) is s + a * s * (1 - s), which is what "the backward of SwiGlu" is; the golden
uses the derivative. Computed in float64; the runner rounds to x_grad's dtype.
"""
import numpy as np


def swi_glu_grad_golden(y_grad, x, x_grad=None, dim=-1, **_attrs):
    g = np.asarray(y_grad["value"], dtype=np.float64)
    v = np.asarray(x["value"], dtype=np.float64)
    d = -1 if dim is None else int(dim)
    if d < 0:
        d += v.ndim
    if not 0 <= d < v.ndim or v.shape[d] % 2 != 0:
        raise ValueError("dim %r does not name an axis of even size in %s" % (dim, v.shape))
    a, b = np.split(v, 2, axis=d)
    if g.shape != a.shape:
        raise ValueError("y_grad %s is not x %s halved on dim %d" % (g.shape, v.shape, d))
    with np.errstate(over="ignore", invalid="ignore"):
        s = 1.0 / (1.0 + np.exp(-a))
        da = g * (s + s * (1.0 - s) * a) * b
        db = g * s * a
    return np.concatenate([da, db], axis=d)
