"""Golden for MulSigmoid (cann-ops src/math/mul_sigmoid).

Documented semantics (docs/MulSigmoid.md, formula and "implementation" steps):
    tmp = sigmoid(x1 * t1) = 1 / (1 + exp(-(x1 * t1)))
    tmp = where(tmp < t2, tmp, 2 * tmp)
    out = tmp * x2 * t3
x1 is [rows, cols]; x2 is [1, cols / 128, 128] and multiplies every row (InferShape in
op_host/mul_sigmoid.cpp gives out [rows, cols / 128, 128]). The formula section omits the where
step, which the implementation section lists; with t2 >= 1 the two agree. float64 throughout.
"""
import numpy as np


def mul_sigmoid_golden(x1, x2, out=None, t1=0.0, t2=0.0, t3=0.0, **_attrs):
    a = np.asarray(x1["value"], dtype=np.float64)
    b = np.asarray(x2["value"], dtype=np.float64)
    rows, cols = a.shape
    tmp = 1.0 / (1.0 + np.exp(-(a * float(t1))))
    tmp = np.where(tmp < float(t2), tmp, 2.0 * tmp)
    return (tmp.reshape(rows, cols // 128, 128) * b.reshape(1, cols // 128, 128)) * float(t3)
