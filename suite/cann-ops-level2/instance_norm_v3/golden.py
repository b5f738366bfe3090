"""Golden for InstanceNormV3 (cann-ops src/norm/instance_norm_v3).

Documented semantics (docs/aclnnInstanceNorm.md): for x in NCHW (data_format "NCHW"), every sample
n and channel c is normalized over its H x W plane:
    mean     = E[x]                          shape [N, C, 1, 1]
    variance = Var[x]                        shape [N, C, 1, 1]
    y        = (x - mean) / sqrt(variance + epsilon) * gamma[c] + beta[c]
Var is the biased variance (torch.nn.functional.instance_norm normalizes by it); the docs name the
output Var(x), so it is the variance itself, not its reciprocal root. Computed in float64.
"""
import numpy as np


def instance_norm_v3_golden(x, gamma, beta, y=None, mean=None, variance=None, data_format="NCHW",
                            epsilon=1e-6, **_attrs):
    if data_format != "NCHW":
        raise ValueError("the golden implements data_format NCHW, the case gives %r" % data_format)
    xv = np.asarray(x["value"], np.float64)
    mu = xv.mean(axis=(2, 3), keepdims=True)
    var = ((xv - mu) ** 2).mean(axis=(2, 3), keepdims=True)
    c = xv.shape[1]
    g = np.asarray(gamma["value"], np.float64).reshape(1, c, 1, 1)
    b = np.asarray(beta["value"], np.float64).reshape(1, c, 1, 1)
    out = (xv - mu) / np.sqrt(var + float(epsilon)) * g + b
    return [out, mu, var]
