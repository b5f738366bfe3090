"""Golden for ForeachAddcmulScalarList (cann-ops src/foreach/foreach_addcmul_scalar_list).

Documented semantics (docs/aclnnForeachAddcmulScalarList.md, as torch._foreach_addcmul with a
list of scalars): y_i = x1_i + scalars_i * x2_i * x3_i for every triple of tensors, element by
element, scalars_i being the i-th element of the scalars tensor (of the lists' dtype).
- floats: computed in float64 from the given values (the product of three 16- or 32-bit values
  is exact there) and rounded once to the output dtype by the runner, as torch computes half
  and bfloat16 lists in float.
- int32: 32-bit two's-complement arithmetic, wrapping on overflow as torch's int32 tensors do.
"""
import numpy as np


def foreach_addcmul_scalar_list_golden(x1, x2, x3, scalars, y=None, **_attrs):
    s = np.asarray(scalars["value"]).reshape(-1)
    if len(s) < len(x1):
        raise ValueError("scalars holds %d values for a list of %d tensors" % (len(s), len(x1)))
    out = []
    for i, (a, b, c) in enumerate(zip(x1, x2, x3)):
        if a["dtype"] == "int32":
            v = a["value"].astype(np.int64) + np.int64(s[i]) * b["value"].astype(np.int64) * c["value"].astype(np.int64)
            out.append(v.astype(np.int32))  # wraps modulo 2^32 (every term stays inside int64 here)
        else:
            with np.errstate(invalid="ignore", over="ignore"):
                out.append(a["value"].astype(np.float64) + np.float64(s[i]) * b["value"].astype(np.float64) * c["value"].astype(np.float64))
    return out
