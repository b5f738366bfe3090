"""Golden for ForeachAddList (cann-ops src/foreach/foreach_add_list).

Documented semantics (docs/aclnnForeachAddList.md, as torch._foreach_add with two lists and
alpha): y_i = x1_i + x2_i * alpha for every pair of tensors, element by element.
- floats: computed in float64 from the given values (alpha as its tensor holds it: fp16 for an
  fp16 list, fp32 otherwise) and rounded to the output dtype by the runner (IEEE rules for
  infinities and NaN).
- int32: 32-bit two's-complement arithmetic, wrapping on overflow as torch's int32 tensors do.
"""
import numpy as np


def _add(a, b, alpha):
    if a["dtype"] == "int32":
        return (a["value"].astype(np.int64) + b["value"].astype(np.int64) * np.int64(alpha)).astype(np.int32)  # wraps
    with np.errstate(invalid="ignore", over="ignore"):
        return a["value"].astype(np.float64) + b["value"].astype(np.float64) * np.float64(alpha)


def foreach_add_list_golden(x1, x2, alpha, y=None, **_attrs):
    al = np.asarray(alpha["value"]).reshape(-1)[0]
    return [_add(a, b, al) for a, b in zip(x1, x2)]
