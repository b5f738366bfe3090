"""Golden for GroupNormSwishGrad (cann-ops src/norm/group_norm_swish_grad).

The operator is the backward of GroupNormSwish (docs/aclnnGroupNormSwishGrad.md: "the backward of
GroupNormSwish"; the docs give no formula). Forward (docs/GroupNormSwish.md of group_norm_swish):
    out = (x - mean) * rstd * gamma[c] + beta[c]      over num_groups groups of C / num_groups channels
    y   = out / (1 + exp(-swish_scale * out))
Backward, with the given mean and rstd used as they are (as PyTorch's native_group_norm_backward does):
    sig  = 1 / (1 + exp(-swish_scale * out))
    dout = dy * (sig + swish_scale * out * sig * (1 - sig))
    then the group-norm backward of dout: with HxW the spatial size, D = C / G, s = 1 / (D * HxW),
    ds[n, c] = sum_hw dout * x,  db[n, c] = sum_hw dout,
    ds_g = sum_{c in g} ds * gamma,  db_g = sum_{c in g} db * gamma,
    c2 = (db_g * mean - ds_g) * rstd^3 * s,  c3 = -c2 * mean - db_g * rstd * s,
    dx = rstd * gamma * dout + c2 * x + c3,
    dgamma[c] = sum_n (ds - db * mean) * rstd,  dbeta[c] = sum_n db.
Outputs in OpDef order: dx, dgamma, dbeta. Computed in float64.
"""
import numpy as np


def group_norm_swish_grad_golden(dy, mean, rstd, x, gamma, beta, dx=None, dgamma=None, dbeta=None,
                                 num_groups=None, swish_scale=1.0, **_attrs):
    xv = np.asarray(x["value"], np.float64)
    n, c = xv.shape[0], xv.shape[1]
    g = int(num_groups)
    d = c // g
    hw = int(np.prod(xv.shape[2:])) if xv.ndim > 2 else 1
    x3 = xv.reshape(n, c, hw)
    dy3 = np.asarray(dy["value"], np.float64).reshape(n, c, hw)
    mu = np.asarray(mean["value"], np.float64).reshape(n, g)
    r = np.asarray(rstd["value"], np.float64).reshape(n, g)
    gam = np.asarray(gamma["value"], np.float64).reshape(c)
    bet = np.asarray(beta["value"], np.float64).reshape(c)
    muc = np.repeat(mu, d, axis=1)[:, :, None]
    rc = np.repeat(r, d, axis=1)[:, :, None]
    out = (x3 - muc) * rc * gam[None, :, None] + bet[None, :, None]
    scale = float(np.float32(swish_scale))
    with np.errstate(over="ignore"):
        sig = 1.0 / (1.0 + np.exp(-scale * out))
    dout = dy3 * (sig + scale * out * sig * (1.0 - sig))
    ds = (dout * x3).sum(axis=2)
    db = dout.sum(axis=2)
    s = 1.0 / (d * hw)
    ds_g = (ds * gam).reshape(n, g, d).sum(axis=2)
    db_g = (db * gam).reshape(n, g, d).sum(axis=2)
    c2 = (db_g * mu - ds_g) * r ** 3 * s
    c3 = -c2 * mu - db_g * r * s
    c2c = np.repeat(c2, d, axis=1)[:, :, None]
    c3c = np.repeat(c3, d, axis=1)[:, :, None]
    dx_v = rc * gam[None, :, None] * dout + c2c * x3 + c3c
    dgamma_v = ((ds - db * muc[:, :, 0]) * rc[:, :, 0]).sum(axis=0)
    dbeta_v = db.sum(axis=0)
    return [dx_v.reshape(xv.shape), dgamma_v, dbeta_v]
