"""Golden for AddLayerNorm (cann-ops src/norm/add_layer_norm).

Documented semantics (docs/aclnnAddLayerNorm.md: formula and the meanOut / rstdOut descriptions):
    x    = x1 + x2 + bias                  (bias optional: shaped like gamma, broadcast over the
                                            rows, or shaped like x1)
    mean = mean(x)                         over the trailing gamma.ndim dimensions
    rstd = (var(x) + epsilon) ** -0.5      var as np.var: the biased (1/n) variance
    y    = (x - mean) * rstd * gamma + beta
mean and rstd keep x1's leading dimensions and have 1 in the normalized ones (docs; the tiling
checks it). The output x is the sum itself, produced only with additional_output (the docs: it
"enables the x output"); without it the golden returns None for x (unwritten by contract).
Everything in float64 from the inputs as stored; the sum is exact (the runner rounds each output
to its dtype).
"""
import numpy as np


def add_layer_norm_golden(x1, x2, gamma, beta, bias=None, y=None, mean=None, rstd=None, x=None,
                          epsilon=1e-5, additional_output=False, **_attrs):
    s = np.asarray(x1["value"], np.float64) + np.asarray(x2["value"], np.float64)
    if bias is not None and bias.get("value") is not None:
        s = s + np.asarray(bias["value"], np.float64)  # numpy broadcasting: gamma-shaped or x1-shaped
    g = np.asarray(gamma["value"], np.float64)
    b = np.asarray(beta["value"], np.float64)
    axes = tuple(range(s.ndim - g.ndim, s.ndim))
    mu = np.mean(s, axis=axes, keepdims=True)
    var = np.mean((s - mu) ** 2, axis=axes, keepdims=True)
    r = (var + float(epsilon)) ** -0.5
    out_y = (s - mu) * r * g + b
    stat_shape = mean["shape"] if mean is not None else mu.shape
    return [out_y, mu.reshape(stat_shape), r.reshape(stat_shape), s if additional_output else None]
