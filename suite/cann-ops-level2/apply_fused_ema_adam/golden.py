"""Golden for ApplyFusedEmaAdam (cann-ops src/optim/apply_fused_ema_adam).

Documented semantics (docs/ApplyFusedEmaAdam.md, formula section), elementwise:
    (c1, c2) = (1 - beta1^step, 1 - beta2^step) if bias_correction else (1, 1)
    g        = grad + weight_decay * var   if mode == 0 (L2)   else grad
    m_out    = beta1 * m + (1 - beta1) * g
    v_out    = beta2 * v + (1 - beta2) * g^2
    denom    = sqrt(v_out / c2) + eps
    update   = (m_out / c1) / denom  (+ weight_decay * var if mode == 1, AdamW)
    var_out  = var - lr * update
    s_out    = ema_decay * s + (1 - ema_decay) * var_out
var, m, v and s are updated in place (outputs named like the inputs); step is a one-element int64
tensor. Computed in float64; the attributes are float32 in the OpDef, so the golden takes each at
its float32 value (as the operator receives it).
"""
import numpy as np


def _f32(v):
    return float(np.float32(v))


def apply_fused_ema_adam_golden(grad, var, m, v, s, step, lr=1e-3, ema_decay=0.9999, beta1=0.9,
                                beta2=0.999, eps=1e-8, mode=1, bias_correction=True,
                                weight_decay=0.0, **_attrs):
    lr, ema_decay, beta1, beta2, eps, wd = (_f32(a) for a in (lr, ema_decay, beta1, beta2, eps, weight_decay))
    g = np.asarray(grad["value"], np.float64)
    p = np.asarray(var["value"], np.float64)
    mm = np.asarray(m["value"], np.float64)
    vv = np.asarray(v["value"], np.float64)
    ss = np.asarray(s["value"], np.float64)
    t = float(np.asarray(step["value"]).reshape(-1)[0])
    c1, c2 = (1.0 - beta1 ** t, 1.0 - beta2 ** t) if bias_correction else (1.0, 1.0)
    if int(mode) == 0:
        g = g + wd * p
    m_out = beta1 * mm + (1.0 - beta1) * g
    v_out = beta2 * vv + (1.0 - beta2) * g * g
    denom = np.sqrt(v_out / c2) + eps
    update = (m_out / c1) / denom
    if int(mode) == 1:
        update = update + wd * p
    var_out = p - lr * update
    s_out = ema_decay * ss + (1.0 - ema_decay) * var_out
    return [var_out, m_out, v_out, s_out]
