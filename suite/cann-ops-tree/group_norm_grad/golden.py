"""Golden for GroupNormGrad (cann-ops src/norm/group_norm_grad).

The operator is the backward of GroupNorm (docs/aclnnGroupNormBackward.md: "the backward of
aclnnGroupNorm"; the docs give no formula). Semantics: PyTorch's native_group_norm_backward, which
takes the forward's mean and rstd as inputs and uses them as given. x and dy are [N, C, *spatial]
with HxW the spatial size, G = num_groups groups of D = C / G channels, mean/rstd [N, G], gamma [C]:
    ds[n, c] = sum_hw dy * x          db[n, c] = sum_hw dy
    per (n, g), s = 1 / (D * HxW):
        ds_g = sum_{c in g} ds[n, c] * gamma[c]     db_g = sum_{c in g} db[n, c] * gamma[c]
        c2   = (db_g * mean - ds_g) * rstd^3 * s
        c3   = -c2 * mean - db_g * rstd * s
    dx[n, c, hw] = rstd * gamma[c] * dy + c2 * x + c3
    dgamma[c]    = sum_n (ds[n, c] - db[n, c] * mean[n, g]) * rstd[n, g]
    dbeta[c]     = sum_n db[n, c]
(when mean and rstd are x's group statistics this is the exact gradient of
y = (x - mean) * rstd * gamma + beta). Outputs in OpDef order: dx, dgamma, dbeta. Computed in float64.
"""
import numpy as np


def group_norm_grad_golden(dy, mean, rstd, x, gamma, dx=None, dgamma=None, dbeta=None, num_groups=None,
                           **_attrs):
    dyv = np.asarray(dy["value"], np.float64)
    xv = np.asarray(x["value"], np.float64)
    n, c = xv.shape[0], xv.shape[1]
    g = int(num_groups)
    d = c // g
    hw = int(np.prod(xv.shape[2:])) if xv.ndim > 2 else 1
    dy3 = dyv.reshape(n, c, hw)
    x3 = xv.reshape(n, c, hw)
    mu = np.asarray(mean["value"], np.float64).reshape(n, g)
    r = np.asarray(rstd["value"], np.float64).reshape(n, g)
    gam = np.asarray(gamma["value"], np.float64).reshape(c)
    ds = (dy3 * x3).sum(axis=2)                    # [n, c]
    db = dy3.sum(axis=2)                           # [n, c]
    s = 1.0 / (d * hw)
    ds_g = (ds * gam).reshape(n, g, d).sum(axis=2)  # [n, g]
    db_g = (db * gam).reshape(n, g, d).sum(axis=2)
    c2 = (db_g * mu - ds_g) * r ** 3 * s
    c3 = -c2 * mu - db_g * r * s
    rc = np.repeat(r, d, axis=1)                   # [n, c]
    c2c = np.repeat(c2, d, axis=1)
    c3c = np.repeat(c3, d, axis=1)
    dx_v = rc[:, :, None] * gam[None, :, None] * dy3 + c2c[:, :, None] * x3 + c3c[:, :, None]
    muc = np.repeat(mu, d, axis=1)
    dgamma_v = ((ds - db * muc) * rc).sum(axis=0)
    dbeta_v = db.sum(axis=0)
    return [dx_v.reshape(xv.shape), dgamma_v, dbeta_v]
