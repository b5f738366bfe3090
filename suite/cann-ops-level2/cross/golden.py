"""Golden for Cross (cann-ops src/math/cross).

Documented semantics (docs/Cross.md): the vector (cross) product of x1 and x2 along dimension
`dim`, which must have size 3; y has x1's dimensions. The docs name no further rules, so the
golden follows PyTorch (torch.cross, which the aclnn interface mirrors):
- a negative dim counts from the end;
- the default dim (-65530, "not given") selects the first dimension of size 3 in both inputs,
  as torch.cross without dim did;
- x2 broadcasts against x1 (numpy rules, same rank here).
With (a1, a2, a3) and (b1, b2, b3) the three slices of x1 and x2 along dim:
    y = (a2 b3 - a3 b2, a3 b1 - a1 b3, a1 b2 - a2 b1)
Floats are computed in float64 and rounded once by the runner; int8 and int32 exactly, wrapped
to the dtype's width as PyTorch's integer tensors wrap.
"""
import numpy as np

_DEFAULT_DIM = -65530


def _pick_dim(s1, s2, dim):
    n = len(s1)
    if dim is None or dim == _DEFAULT_DIM:
        for i in range(n):
            if s1[i] == 3 and s2[i] == 3:
                return i
        raise ValueError("no dimension of size 3 in both inputs")
    d = dim + n if dim < 0 else dim
    if not 0 <= d < n or s1[d] != 3:
        raise ValueError("dim %r does not name a dimension of size 3" % (dim,))
    return d


def cross_golden(x1, x2, y=None, dim=_DEFAULT_DIM, **_attrs):
    a = np.asarray(x1["value"])
    b = np.asarray(x2["value"])
    d = _pick_dim(a.shape, b.shape, int(dim) if dim is not None else None)
    a, b = np.broadcast_arrays(a, b)
    a = np.moveaxis(a, d, 0)
    b = np.moveaxis(b, d, 0)
    dt = x1["dtype"]
    if dt in ("int8", "int32"):
        a = a.astype(np.int64)
        b = b.astype(np.int64)
    else:
        a = a.astype(np.float64)
        b = b.astype(np.float64)
    r = np.stack([a[1] * b[2] - a[2] * b[1],
                  a[2] * b[0] - a[0] * b[2],
                  a[0] * b[1] - a[1] * b[0]])
    r = np.moveaxis(r, 0, d)
    if dt in ("int8", "int32"):
        bits = 8 if dt == "int8" else 32
        m = 1 << bits
        r = ((r + (m >> 1)) % m) - (m >> 1)
        return r.astype(dt)
    return r
