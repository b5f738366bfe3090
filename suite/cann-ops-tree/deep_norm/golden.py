"""Golden for DeepNorm (cann-ops src/norm/deep_norm).

Documented semantics (docs/aclnnDeepNorm.md, formula section):
    x'   = alpha * x + gx
    mean = mean(x')                         over the trailing gamma.ndim dimensions
    rstd = 1 / sqrt(var(x') + epsilon)      var biased (1/n)
    y    = (x' - mean) * rstd * gamma + beta
The docs divide by sqrt(var + eps) and call that rstd; the output rstd is taken as the reciprocal
(its name). alpha and epsilon are float32 attributes and are used at their float32 values.
Outputs in OpDef order: mean, rstd, y. Computed in float64.
"""
import numpy as np


def deep_norm_golden(x, gx, beta, gamma, mean=None, rstd=None, y=None, alpha=0.3, epsilon=1e-6, **_attrs):
    a = float(np.float32(alpha))
    xp = a * np.asarray(x["value"], np.float64) + np.asarray(gx["value"], np.float64)
    g = np.asarray(gamma["value"], np.float64)
    b = np.asarray(beta["value"], np.float64)
    axes = tuple(range(xp.ndim - g.ndim, xp.ndim))
    mu = np.mean(xp, axis=axes, keepdims=True)
    var = np.mean((xp - mu) ** 2, axis=axes, keepdims=True)
    r = 1.0 / np.sqrt(var + float(np.float32(epsilon)))
    out = (xp - mu) * r * g + b
    return [mu, r, out]
