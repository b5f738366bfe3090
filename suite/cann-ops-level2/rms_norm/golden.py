"""Golden for RmsNorm (cann-ops src/norm/rms_norm).

Documented semantics (docs/aclnnRmsNorm.md, formula section):
    rstd = 1 / sqrt(mean(x^2) + epsilon)      over the trailing gamma.ndim dimensions of x
    y    = x * rstd * gamma
gamma's shape equals the last dimensions of x (docs: gamma_shape = x_shape[n:]); rstd keeps the
leading dimensions of x and has size 1 in the normalized ones (InferShape4RmsNorm in
op_host/rms_norm.cpp). The docs call the second output Rms(x), but its name, its float32 dtype and
every framework that returns it (e.g. torch_npu.npu_rms_norm) make it the reciprocal 1/Rms(x);
the golden returns the reciprocal. A NaN anywhere in a row makes that row's rstd and y NaN (IEEE
propagation through the mean). Computed in float64 from the inputs as stored.
"""
import numpy as np


def rms_norm_golden(x, gamma, y=None, rstd=None, epsilon=1e-6, **_attrs):
    xv = np.asarray(x["value"], dtype=np.float64)
    g = np.asarray(gamma["value"], dtype=np.float64)
    axes = tuple(range(xv.ndim - g.ndim, xv.ndim))
    mean_sq = np.mean(xv * xv, axis=axes, keepdims=True)
    r = 1.0 / np.sqrt(mean_sq + float(epsilon))
    out_y = xv * r * g
    out_rstd = r if rstd is None else r.reshape(rstd["shape"])
    return [out_y, out_rstd]
