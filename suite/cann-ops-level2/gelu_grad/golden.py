"""Golden for GeluGrad (cann-ops src/math/gelu_grad).

Documented semantics (docs/GeluGrad.md, "计算公式"): the gradient of the tanh-form GELU
    gelu(x) = x / (exp((c0 x^2 + c1) x) + 1),  c0 = -0.0713548162726002527220,
                                                c1 = -1.595769121605730711759
times the incoming gradient dy:
    z = dy * d gelu / dx = dy * (t + px * t^2 * (c2 x^2 + c3) x)
with px = exp((c0 x^2 + c1) x), t = 1 / (px + 1), c2 = 0.2140644488178007,
c3 = 1.595769121605730711759 (the docs' Atlas A2 form; the 200I/500 A2 form is the same function).
The forward output y is an input of the operator that the formula does not use.
Computed in float64 in an overflow-free form: with s = -(c0 x^2 + c1) x / 2, t = (1 + tanh s) / 2
and px * t^2 = t (1 - t) = (1 - tanh(s)^2) / 4; the limits are z = dy for x -> +inf and z = 0
for x -> -inf.
"""
import numpy as np

C0 = -0.0713548162726002527220
C1 = -1.595769121605730711759
C2 = 0.2140644488178007
C3 = 1.595769121605730711759


def gelu_grad_golden(dy, x, y=None, z=None, **_attrs):
    g = np.asarray(dy["value"], dtype=np.float64)
    v = np.asarray(x["value"], dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        s = -(C0 * v * v + C1) * v / 2.0
        th = np.tanh(s)
        t = 0.5 * (1.0 + th)
        slope = (C2 * v * v + C3) * v
        # t (1 - t) * slope, written so that it is 0 (not inf * 0) where tanh saturates
        sech2 = np.where(np.abs(s) > 40.0, 4.0 * np.exp(-2.0 * np.abs(np.where(np.isfinite(s), s, 1e3))),
                         1.0 - th * th)
        second = np.where(sech2 == 0.0, 0.0, 0.25 * sech2 * slope)
        return g * (t + second)
