"""Golden for AddSigmoidMulReduceSumD (cann-ops src/math/add_sigmoid_mul_reduce_sum_d).

Documented semantics (docs/AddSigmoidMulReduceSumD.md, "计算公式" and "实现原理"), ND layout:
    add_res  = add_0_input0 + add_0_input1          [B, M, N] + [1, 1, N]
    mul1_res = add_res * mul_0_input1               a one-element scale
    sig      = 1 / (1 + exp(-mul1_res))
    mul3_res = sig * mult_1_input1 * mult_2_input1  [B, M, 1] and [B, M, N]
    out      = sum of mul3_res over axis 1           [B, N]
The docs' formula sums over one index and the steps name ReduceSum on axis 1; InferShape gives
out the shape [B, N] (the prototype table's out shape [40, 64, 32] contradicts both, and is
not followed). A 4-D add_0_input0 [B, M, N, K] is the same computation on [B, M, N*K] (InferShape:
out [B, N*K], add_0_input1's last dimension N*K). Computed in float64; the runner rounds to
float16.
"""
import numpy as np


def add_sigmoid_mul_reduce_sum_d_golden(add_0_input0, add_0_input1, mul_0_input1, mult_1_input1,
                                        mult_2_input1, out=None, **_attrs):
    a = np.asarray(add_0_input0["value"], dtype=np.float64)
    b, m = a.shape[0], a.shape[1]
    a = a.reshape(b, m, -1)
    bias = np.asarray(add_0_input1["value"], dtype=np.float64).reshape(1, 1, -1)
    scale = np.asarray(mul_0_input1["value"], dtype=np.float64).reshape(())
    m1 = np.asarray(mult_1_input1["value"], dtype=np.float64).reshape(b, m, 1)
    m2 = np.asarray(mult_2_input1["value"], dtype=np.float64).reshape(b, m, -1)
    with np.errstate(over="ignore", invalid="ignore"):
        x = (a + bias) * scale
        sig = 1.0 / (1.0 + np.exp(-x))
        return (sig * m1 * m2).sum(axis=1)
