"""Golden for Addcdiv (cann-ops src/math/addcdiv).

Documented semantics (docs/Addcdiv.md, "计算公式"; the same as torch.addcdiv):
    y = input_data + value * x1 / x2
computed here in float64 from the inputs and rounded once to y's dtype by the runner. `value`
is one element (the docs' host scalar) or, on the operator's second path, a tensor of the
inputs' shape taken element by element; x1 / x2 by zero follows IEEE 754 (+-inf, NaN for
0 / 0), as in PyTorch.
"""
import numpy as np


def addcdiv_golden(input_data, x1, x2, value, y=None, **_attrs):
    a = np.asarray(input_data["value"], dtype=np.float64)
    n = np.asarray(x1["value"], dtype=np.float64)
    d = np.asarray(x2["value"], dtype=np.float64)
    v = np.asarray(value["value"], dtype=np.float64)
    if v.size == 1:
        v = v.reshape(())
    elif v.shape != a.shape:
        v = v.reshape(a.shape)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        out = a + v * (n / d)
    return out
