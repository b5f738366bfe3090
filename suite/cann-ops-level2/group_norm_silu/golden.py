"""Golden for GroupNormSilu (cann-ops src/norm/group_norm_silu).

Semantics (docs/GroupNormSilu.md, with one correction named below):
    x has shape [N, C, *spatial]; its C channels form num_groups groups of C / num_groups channels.
    For every sample n and group g, over the group's channels and all spatial positions:
        mean = E[x],  rstd = 1 / sqrt(Var[x] + eps)
        out  = (x - mean) * rstd * gamma[c] + beta[c]
        y    = out * sigmoid(out)  if activate_silu, else out
    mean and rstd have shape [N, num_groups].
Var is the biased variance (1/n). The tree's docs write the sample variance 1/(n-1); CANN's later
published aclnnGroupNormSilu page (CANN 8.5.0) gives 1/n, as torch.nn.functional.group_norm does,
whose semantics GroupNorm follows; the golden uses 1/n. That page also spells out the SiLU step
(out / (1 + e^-out)), which the tree's docs only name. Everything in float64.
"""
import numpy as np


def group_norm_silu_golden(x, gamma, beta, y=None, mean=None, rstd=None, num_groups=None, eps=1e-5,
                           activate_silu=True, **_attrs):
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
    if activate_silu:
        with np.errstate(over="ignore"):
            out = out / (1.0 + np.exp(-out))
    return [out, mu.reshape(n, g), r.reshape(n, g)]
