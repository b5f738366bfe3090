"""Golden for ForeachCopy (cann-ops src/foreach/foreach_copy).

Documented semantics (docs/aclnnForeachCopy.md, as torch._foreach_copy_ into a list of the same
shapes and dtype): y_i = x_i, every element unchanged. The golden returns each input as it is,
in its own dtype (so int64 and uint32 values are not routed through a float).
"""
import numpy as np


def foreach_copy_golden(x, y=None, **_attrs):
    return [np.array(t["value"], copy=True) for t in x]
