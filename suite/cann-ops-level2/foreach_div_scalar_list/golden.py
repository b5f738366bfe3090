"""Golden for ForeachDivScalarList (cann-ops src/foreach/foreach_div_scalar_list).

Documented semantics (docs/aclnnForeachDivScalarList.md, as torch._foreach_div with a list of
scalars): y_i = x_i / scalars_i for every tensor x_i of the list, scalars_i being the i-th
element of the FLOAT scalar list. Computed in float64 from the given values (the fp32 scalar as
given, whatever the list's dtype, as torch divides a half list in float) with IEEE division
(x / 0 = +-inf, 0 / 0 = NaN), rounded to the output dtype by the runner.
"""
import numpy as np


def foreach_div_scalar_list_golden(x, scalars, y=None, **_attrs):
    s = np.asarray(scalars["value"]).reshape(-1)
    if len(s) < len(x):
        raise ValueError("scalars holds %d values for a list of %d tensors" % (len(s), len(x)))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return [t["value"].astype(np.float64) / np.float64(s[i]) for i, t in enumerate(x)]
