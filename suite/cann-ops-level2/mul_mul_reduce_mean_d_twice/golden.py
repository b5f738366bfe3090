"""Golden for MulMulReduceMeanDTwice (cann-ops src/math/mul_mul_reduce_mean_d_twice).

Documented semantics (docs/MulMulReduceMeanDTwice.md, "实现原理" steps 1-7), per row of the
[rows, cols] inputs (means over axis 1, keepdims):
    mul_res  = mul0_input0 * mul0_input1 * mul1_input0      (mul1_input0: one value)
    mean0    = mean(mul_res, axis=1)
    x2       = mean((mul_res - mean0) ** 2, axis=1)
    rm1      = gamma / sqrt(x2 + add_y)                     (add_y: one value; gamma [1, cols])
    output   = beta - rm1 * mean0 + rm1 * mul_res           (beta [1, cols])
The docs' formula list ends with a sigmoid of output * t1, but no input or attribute t1
exists, the operator has the single output `output`, and the implementation steps stop at
step 7, so the golden returns step 7's output. Computed in float64.
"""
import numpy as np


def mul_mul_reduce_mean_d_twice_golden(mul0_input0, mul0_input1, mul1_input0, add_y, gamma, beta,
                                       output=None, **_attrs):
    a = np.asarray(mul0_input0["value"], dtype=np.float64)
    b = np.asarray(mul0_input1["value"], dtype=np.float64)
    c = np.asarray(mul1_input0["value"], dtype=np.float64).reshape(-1)[0]
    eps = np.asarray(add_y["value"], dtype=np.float64).reshape(-1)[0]
    g = np.asarray(gamma["value"], dtype=np.float64).reshape(1, -1)
    be = np.asarray(beta["value"], dtype=np.float64).reshape(1, -1)
    x = a * b * c
    mean0 = x.mean(axis=1, keepdims=True)
    x2 = ((x - mean0) ** 2).mean(axis=1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        rm1 = g / np.sqrt(x2 + eps)
        return be - rm1 * mean0 + rm1 * x
