"""Golden for ForeachSubScalar (cann-ops src/foreach/foreach_sub_scalar).

Documented semantics (docs/aclnnForeachSubScalar.md, as torch._foreach_sub with a scalar):
y_i = x_i - scalar for every tensor x_i of the list, element by element.
- floats: computed in float64 from the given values (scalar as its tensor holds it: fp16 for an
  fp16 list, fp32 otherwise) and rounded to the output dtype by the runner (IEEE: beyond the
  range is inf, inf - inf is NaN).
- int32: 32-bit two's-complement arithmetic, wrapping on overflow as torch's int32 tensors do
  (the docs say nothing about overflow).
"""
import numpy as np


def _sub(t, s):
    if t["dtype"] == "int32":
        return (t["value"].astype(np.int64) - np.int64(s)).astype(np.int32)  # wraps modulo 2^32
    with np.errstate(invalid="ignore"):
        return t["value"].astype(np.float64) - np.float64(s)


def foreach_sub_scalar_golden(x, scalar, y=None, **_attrs):
    s = np.asarray(scalar["value"]).reshape(-1)[0]
    return [_sub(t, s) for t in x]
