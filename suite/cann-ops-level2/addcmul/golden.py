"""Golden for Addcmul (cann-ops src/math/addcmul).

Documented semantics (docs/Addcmul.md, "计算公式"; the same as torch.addcmul):
    y = input_data + value * x1 * x2
Floating dtypes: computed in float64 and rounded once to y's dtype by the runner.
int32: exact integer arithmetic reduced modulo 2^32 to a signed int32, as PyTorch's int32
tensors wrap (the docs say nothing of overflow).
`value` is one element (the docs' host scalar) or, on the operator's second path, a tensor of
the inputs' shape taken element by element.
"""
import numpy as np


def _value(value, shape):
    v = np.asarray(value["value"])
    if v.size == 1:
        return v.reshape(())
    return v.reshape(shape)


def addcmul_golden(input_data, x1, x2, value, y=None, **_attrs):
    a = np.asarray(input_data["value"])
    if input_data["dtype"] == "int32":
        # exact in arithmetic modulo 2^64 (numpy uint64 wraps), reduced modulo 2^32
        u = lambda t: np.asarray(t).astype(np.int64).view(np.uint64)
        v = u(_value(value, a.shape))
        with np.errstate(over="ignore"):
            full = u(a) + v * u(x1["value"]) * u(x2["value"])
        return (full & np.uint64(0xFFFFFFFF)).astype(np.uint32).view(np.int32)
    v = _value(value, a.shape).astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        return a.astype(np.float64) + v * (np.asarray(x1["value"], np.float64) * np.asarray(x2["value"], np.float64))
