"""Golden for LinSpace (cann-ops src/math/lin_space).

Documented semantics (docs/aclnnLinspace.md): a 1-D tensor of `steps` values spread evenly from
start to end, both included:
    out = (start, start + (end - start) / (steps - 1), ..., start + (steps - 2) * (end - start) / (steps - 1), end)
and out = (start) for steps = 1. The operator takes start, end (the OpDef calls it stop) and
steps (num) as one-element tensors; the output's length must equal num. Computed in float64
from start and stop as given; the runner rounds to float32.
"""
import numpy as np


def lin_space_golden(start, stop, num, output=None, **_attrs):
    a = float(np.asarray(start["value"], dtype=np.float64).reshape(-1)[0])
    b = float(np.asarray(stop["value"], dtype=np.float64).reshape(-1)[0])
    n = int(np.asarray(num["value"]).reshape(-1)[0])
    if n < 1:
        raise ValueError("num must be at least 1 here, not %d" % n)
    if output is not None and int(np.prod(output["shape"])) != n:
        raise ValueError("output has %d elements, num is %d" % (int(np.prod(output["shape"])), n))
    if n == 1:
        return np.array([a])
    i = np.arange(n, dtype=np.float64)
    out = a + i * ((b - a) / (n - 1))
    out[-1] = b
    return out
