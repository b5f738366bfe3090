"""Golden for ForeachMaximumScalar (cann-ops src/foreach/foreach_maximum_scalar).

Documented semantics (docs/aclnnForeachMaximumScalar.md, as torch._foreach_maximum with a
scalar): y_i = max(x_i, scalar) for every tensor x_i of the list, element by element. The docs
say nothing of NaN; torch.maximum propagates it (a NaN on either side gives NaN), and so does
this golden. The result is one of the two operands, so it is exact in every dtype (a winning
fp32 scalar is rounded to a bf16 list's dtype by the runner).
"""
import numpy as np


def foreach_maximum_scalar_golden(x, scalar, y=None, **_attrs):
    s = np.asarray(scalar["value"]).reshape(-1)[0]
    if x[0]["dtype"] == "int32":
        return [np.maximum(t["value"].astype(np.int64), np.int64(s)) for t in x]
    return [np.maximum(t["value"].astype(np.float64), np.float64(s)) for t in x]
