"""Golden for DeepNormGrad (cann-ops src/norm/deep_norm_grad).

Documented semantics (docs/aclnnDeepNormGrad.md, formula section), the backward of
DeepNorm y = (alpha * x + gx - mean) * rstd * gamma + beta, with D the number of elements in
gamma's (trailing) dimensions and the sums for d_var / d_mean over those D elements of a row:
    tmpone = dy * gamma
    tmptwo = alpha * x + gx - mean
    d_var  = sum(-0.5 * tmpone * tmptwo * rstd^3)
    d_mean = sum(-tmpone * rstd)
    dgx    = tmpone * rstd + 2 / D * d_var * tmptwo + 1 / D * d_mean
    dx     = alpha * dgx          (the docs write "alpha * gx", the gradient w.r.t. x = alpha * dgx)
    dbeta  = sum over rows of dy
    dgamma = sum over rows of dy * rstd * tmptwo
mean and rstd are the given inputs (not recomputed), exactly as the formula uses them.
Outputs in OpDef order: dx, dgx, dbeta, dgamma. Computed in float64.
"""
import numpy as np


def deep_norm_grad_golden(dy, x, gx, gamma, mean, rstd, dx=None, dgx=None, dbeta=None, dgamma=None,
                          alpha=0.3, **_attrs):
    a = float(np.float32(alpha))
    dyv = np.asarray(dy["value"], np.float64)
    g = np.asarray(gamma["value"], np.float64)
    nd = dyv.ndim - g.ndim
    rows = int(np.prod(dyv.shape[:nd]))
    d = g.size
    dy2 = dyv.reshape(rows, d)
    x2 = np.asarray(x["value"], np.float64).reshape(rows, d)
    gx2 = np.asarray(gx["value"], np.float64).reshape(rows, d)
    mu = np.asarray(mean["value"], np.float64).reshape(rows, 1)
    r = np.asarray(rstd["value"], np.float64).reshape(rows, 1)
    g2 = g.reshape(1, d)
    tmpone = dy2 * g2
    tmptwo = a * x2 + gx2 - mu
    d_var = np.sum(-0.5 * tmpone * tmptwo * r ** 3, axis=1, keepdims=True)
    d_mean = np.sum(-tmpone * r, axis=1, keepdims=True)
    dgx_v = tmpone * r + 2.0 / d * d_var * tmptwo + 1.0 / d * d_mean
    dx_v = a * dgx_v
    dbeta_v = dy2.sum(axis=0)
    dgamma_v = (dy2 * r * tmptwo).sum(axis=0)
    return [dx_v.reshape(dyv.shape), dgx_v.reshape(dyv.shape), dbeta_v.reshape(g.shape), dgamma_v.reshape(g.shape)]
