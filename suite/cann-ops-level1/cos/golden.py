"""Golden for Cos (cann-ops src/math/cos): y = cos(x), element-wise.

Computed in float64 from the stored input and rounded once to the output dtype by the runner.
cos of +-inf and of NaN is NaN (IEEE); the docs do not discuss non-finite inputs.
"""
import numpy as np


def cos_golden(x, y=None, **_):
    with np.errstate(invalid="ignore"):
        return np.cos(x["value"].astype(np.float64))
