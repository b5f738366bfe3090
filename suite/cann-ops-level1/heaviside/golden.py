"""Golden for Heaviside (cann-ops src/math/heaviside).

Documented semantics (docs/Heaviside.md, after torch.heaviside):
    out = 0       where input < 0
    out = values  where input == 0   (-0.0 included; the values element is copied as it is)
    out = 1       where input > 0
input and values broadcast against each other (numpy rules, as InferShape does). The docs give
no rule for a NaN input; like torch.heaviside (the linked reference) it yields 0 here, and no
case feeds a NaN input.
"""
import numpy as np


def heaviside_golden(input, values, out=None, **_attrs):
    x = np.asarray(input["value"], dtype=np.float64)
    v = np.asarray(values["value"], dtype=np.float64)
    x, v = np.broadcast_arrays(x, v)
    result = np.where(x == 0, v, np.where(x > 0, 1.0, 0.0))
    return result.reshape(out["shape"]) if out is not None else result
