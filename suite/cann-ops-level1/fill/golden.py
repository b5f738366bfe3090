"""Golden for Fill (cann-ops src/math/fill): a tensor of shape dims filled with value.

Docs: creates a tensor whose shape is given by the int64 input dims and fills every element with
the scalar value (same dtype as y). The golden checks that y's shape equals dims.
"""
import numpy as np


def fill_golden(dims, value, y, **_):
    shape = [int(d) for d in np.asarray(dims["value"]).reshape(-1)]
    if shape != list(y["shape"]):
        raise ValueError("dims %s differ from y's shape %s" % (shape, list(y["shape"])))
    v = np.asarray(value["value"]).reshape(-1)[0]
    if y["dtype"] in ("float16", "float32", "bfloat16"):
        return np.full(shape, float(v), dtype=np.float64)
    return np.full(shape, v, dtype=y["dtype"])
