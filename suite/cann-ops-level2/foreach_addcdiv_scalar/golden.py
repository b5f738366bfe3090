"""Golden for ForeachAddcdivScalar (cann-ops src/foreach/foreach_addcdiv_scalar).

Documented semantics (docs/aclnnForeachAddcdivScalar.md, as torch._foreach_addcdiv with a scalar
value): y_i = x1_i + scalar * x2_i / x3_i for every triple of tensors, element by element.
Computed in float64 from the given values (scalar as its tensor holds it: fp16 for an fp16 list,
fp32 otherwise) with IEEE rules (x / 0 = +-inf, 0 / 0 = NaN), rounded once to the output dtype
by the runner, as torch computes half and bfloat16 lists in float.
"""
import numpy as np


def foreach_addcdiv_scalar_golden(x1, x2, x3, scalar, y=None, **_attrs):
    s = np.float64(np.asarray(scalar["value"]).reshape(-1)[0])
    out = []
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for a, b, c in zip(x1, x2, x3):
            out.append(a["value"].astype(np.float64) + s * (b["value"].astype(np.float64) / c["value"].astype(np.float64)))
    return out
