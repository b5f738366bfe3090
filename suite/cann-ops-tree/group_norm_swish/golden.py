"""Golden for GroupNormSwish (cann-ops src/norm/group_norm_swish).

Documented semantics (docs/GroupNormSwish.md, formula section):
    x has shape [N, C, *spatial]; its C channels form num_groups groups of C / num_groups channels.
    For every sample n and group g, over the group's channels and all spatial positions:
        mean = E[x],  Var[x] = 1/n * sum (x - E[x])^2,  rstd = 1 / sqrt(Var[x] + eps)
        out  = (x - mean) * rstd * gamma[c] + beta[c]
        y    = out / (1 + exp(-swish_scale * out))   if activate_swish, else out
    mean and rstd have shape [N, num_groups]. Computed in float64.
"""
import numpy as np


def group_norm_swish_golden(x, gamma, beta, y=None, mean=None, rstd=None, num_groups=None, eps=1e-5,
                            activate_swish=True, swish_scale=1.0, **_attrs):
    xv = np.asarray(x["value"], np.float64)
    n, c = xv.shape[0], xv.shape[1]
    g = int(num_groups)
    if c % g:
        raise ValueError("C = %d is not a multiple of num_groups = %d" % (c, g))
    grouped = xv.reshape(n, g, -1)
    mu = grouped.mean(axis=2, keepdims=True)
    var = ((grouped - mu) ** 2).mean(axis=2, keepdims=True)
    r = 1.0 / np.sqrt(var + float(eps))
    normed = ((grouped - mu) * r).reshape(xv.shape)
    bshape = (1, c) + (1,) * (xv.ndim - 2)
    out = normed * np.asarray(gamma["value"], np.float64).reshape(bshape) \
        + np.asarray(beta["value"], np.float64).reshape(bshape)
    if activate_swish:
        scale = float(np.float32(swish_scale))
        with np.errstate(over="ignore"):
            out = out / (1.0 + np.exp(-scale * out))
    return [out, mu.reshape(n, g), r.reshape(n, g)]
