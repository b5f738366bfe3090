"""Golden for BatchNormV3 (cann-ops src/norm/batch_norm_v3), training mode.

Documented semantics (docs/aclnnBatchNorm.md: formula, training and momentum parameters), with
torch.nn.functional.batch_norm(training=True) for what the docs leave implicit:
    per channel c, over N and every spatial position (x is NCHW or NCDHW, channel axis 1):
        mean      = E[x],   var = biased variance (1/n)
        save_mean = mean,   save_rstd = var   (see below)
        y         = (x - mean) * save_rstd * weight[c] + bias[c]
        running_mean <- (1 - momentum) * running_mean + momentum * mean
        running_var  <- (1 - momentum) * running_var  + momentum * var * n / (n - 1)   (unbiased)
save_rstd: the tree's aclnnBatchNorm.md calls the output saveInvstd, the reciprocal standard
deviation, but CANN's own operator page for BatchNormV3 (ops-nn norm/batch_norm_v3/README.md, the
save_rstd row and the per-product notes) says that on Atlas A2 / A3 (the 910B this suite models)
save_rstd holds Var(x), and 1 / sqrt(Var(x) + eps) only on the Ascend 950. The golden returns
Var(x), the biased variance of the formula.
running_mean and running_var are updated in place (outputs named like the inputs). n = N * spatial
must exceed 1 (torch refuses one value per channel). Computed in float64; epsilon and momentum are
float32 attributes, taken at their float32 values.
"""
import numpy as np


def batch_norm_v3_golden(x, weight, bias, running_mean, running_var, y=None, save_mean=None, save_rstd=None,
                         epsilon=1e-5, momentum=0.1, is_training=True, **_attrs):
    if not is_training:
        raise ValueError("the golden implements training mode (the operator's tiling refuses is_training false)")
    eps, mom = float(np.float32(epsilon)), float(np.float32(momentum))
    xv = np.asarray(x["value"], np.float64)
    axes = (0,) + tuple(range(2, xv.ndim))
    n = xv.size // xv.shape[1]
    if n < 2:
        raise ValueError("one value per channel: the unbiased variance is undefined")
    mean = xv.mean(axis=axes)
    var = ((xv - mean.reshape((1, -1) + (1,) * (xv.ndim - 2))) ** 2).mean(axis=axes)
    rstd = 1.0 / np.sqrt(var + eps)
    bshape = (1, -1) + (1,) * (xv.ndim - 2)
    out = (xv - mean.reshape(bshape)) * rstd.reshape(bshape) * np.asarray(weight["value"], np.float64).reshape(bshape) \
        + np.asarray(bias["value"], np.float64).reshape(bshape)
    rm = (1.0 - mom) * np.asarray(running_mean["value"], np.float64) + mom * mean
    rv = (1.0 - mom) * np.asarray(running_var["value"], np.float64) + mom * var * n / (n - 1)
    return [out, rm, rv, mean, var]
