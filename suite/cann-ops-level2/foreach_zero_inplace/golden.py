"""Golden for ForeachZeroInplace (cann-ops src/foreach/foreach_zero_inplace).

Documented semantics (docs/aclnnForeachZeroInplace.md, as torch._foreach_zero_): every tensor x_i
of the list is set to 0 in place, x_i = 0. The operator has no output; the manifest names x
`inplace`, so the golden returns the final contents of x: zeros of each tensor's shape.
"""
import numpy as np


def foreach_zero_inplace_golden(x, **_attrs):
    return [np.zeros(t["value"].shape, dtype=np.float64) for t in x]
