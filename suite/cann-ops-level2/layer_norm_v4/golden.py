"""Golden for LayerNormV4 (cann-ops src/norm/layer_norm_v4).

Documented semantics (docs/aclnnLayerNorm&aclnnLayerNormWithImplMode.md, formula and parameters):
    out = (x - E[x]) / sqrt(Var[x] + eps) * w + b
over the trailing len(normalized_shape) dimensions of x; w and b have shape normalized_shape and
default to ones and zeros when absent. mean and rstd (= 1 / sqrt(Var[x] + eps)) keep x's leading
dimensions and have 1 in the normalized ones. Var is the biased variance (torch.nn.functional.
layer_norm, which aclnnLayerNorm implements). The normalized dimensions are the last
len(normalized_shape) ones; for a valid call normalized_shape's values equal them (docs), and the
golden takes only its length (the hidden case reshapes x but keeps the one-element
normalized_shape of the perf case). Computed in float64.
"""
import numpy as np


def layer_norm_v4_golden(x, normalized_shape, gamma=None, beta=None, y=None, mean=None, rstd=None,
                         epsilon=1e-5, **_attrs):
    xv = np.asarray(x["value"], np.float64)
    k = int(np.asarray(normalized_shape["value"]).size)
    axes = tuple(range(xv.ndim - k, xv.ndim))
    mu = xv.mean(axis=axes, keepdims=True)
    var = ((xv - mu) ** 2).mean(axis=axes, keepdims=True)
    r = 1.0 / np.sqrt(var + float(epsilon))
    out = (xv - mu) * r
    if gamma is not None:
        out = out * np.asarray(gamma["value"], np.float64)
    if beta is not None:
        out = out + np.asarray(beta["value"], np.float64)
    return [out, mu, r]
