"""Golden for InplaceAddLayerNorm (cann-ops src/norm/inplace_add_layer_norm).

The operator is AddLayerNorm writing y into x1 and the sum into x2 (README.md; the formula from
docs/aclnnAddLayerNorm.md of src/norm/add_layer_norm, whose tiling and kernels it shares):
    x    = x1 + x2 + bias                  (bias optional: shaped like gamma, or like x1)
    mean = mean(x)                         over the trailing gamma.ndim dimensions
    rstd = (var(x) + epsilon) ** -0.5      var biased (np.var)
    y    = (x - mean) * rstd * gamma + beta
Outputs in OpDef order: x1 (= y), mean, rstd, x2 (= x when additional_output, else the input x2
unchanged: the sum is then not written and the buffer is x2's). Computed in float64.
"""
import numpy as np


def inplace_add_layer_norm_golden(x1, x2, gamma, beta, bias=None, mean=None, rstd=None,
                                  epsilon=1e-5, additional_output=False, **_attrs):
    a = np.asarray(x1["value"], np.float64)
    b2 = np.asarray(x2["value"], np.float64)
    s = a + b2
    if bias is not None and bias.get("value") is not None:
        s = s + np.asarray(bias["value"], np.float64)
    g = np.asarray(gamma["value"], np.float64)
    b = np.asarray(beta["value"], np.float64)
    axes = tuple(range(s.ndim - g.ndim, s.ndim))
    mu = np.mean(s, axis=axes, keepdims=True)
    var = np.mean((s - mu) ** 2, axis=axes, keepdims=True)
    r = (var + float(epsilon)) ** -0.5
    out_y = (s - mu) * r * g + b
    stat_shape = mean["shape"] if mean is not None else mu.shape
    return [out_y, mu.reshape(stat_shape), r.reshape(stat_shape), s if additional_output else b2]
