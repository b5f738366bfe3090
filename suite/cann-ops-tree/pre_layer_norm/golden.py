"""Golden for PreLayerNorm (cann-ops src/math/pre_layer_norm).

Documented semantics (docs/PreLayerNorm.md: Add fused with LayerNorm, epsilon default 1e-5):
    s       = x + y
    res_out = (s - mean(s)) / sqrt(var(s) + epsilon) * gamma + beta
with mean and the biased (1/n) variance over the last dimension (LayerNorm over gamma's length,
as torch.nn.functional.layer_norm). float64 throughout.
"""
import numpy as np


def pre_layer_norm_golden(x, y, gamma, beta, res_out=None, epsilon=1e-5, **_attrs):
    s = np.asarray(x["value"], dtype=np.float64) + np.asarray(y["value"], dtype=np.float64)
    g = np.asarray(gamma["value"], dtype=np.float64)
    b = np.asarray(beta["value"], dtype=np.float64)
    mu = s.mean(axis=-1, keepdims=True)
    var = ((s - mu) ** 2).mean(axis=-1, keepdims=True)
    return (s - mu) / np.sqrt(var + float(epsilon)) * g + b
