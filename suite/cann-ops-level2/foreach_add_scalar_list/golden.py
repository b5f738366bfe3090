"""Golden for ForeachAddScalarList (cann-ops src/foreach/foreach_add_scalar_list).

Documented semantics (docs/aclnnForeachAddScalarList.md, as torch._foreach_add with a list of
scalars): y_i = x_i + scalars_i for every tensor x_i of the list, scalars_i being the i-th
element of the scalar list (FLOAT for float lists, INT64 for INT32 lists).
- floats: computed in float64 from the given values (the fp32 scalar as given, whatever the
  list's dtype, as torch computes a half list's sum in float) and rounded by the runner.
- int32: 32-bit two's-complement arithmetic, wrapping on overflow as torch's int32 tensors do.
"""
import numpy as np


def foreach_add_scalar_list_golden(x, scalars, y=None, **_attrs):
    s = np.asarray(scalars["value"]).reshape(-1)
    if len(s) < len(x):
        raise ValueError("scalars holds %d values for a list of %d tensors" % (len(s), len(x)))
    out = []
    for i, t in enumerate(x):
        if t["dtype"] == "int32":
            out.append((t["value"].astype(np.int64) + np.int64(s[i])).astype(np.int32))  # wraps modulo 2^32
        else:
            with np.errstate(invalid="ignore"):
                out.append(t["value"].astype(np.float64) + np.float64(s[i]))
    return out
