"""Golden for ApplyAdamWV2 (cann-ops src/optim/apply_adam_wv2).

Documented semantics (docs/ApplyAdamWV2.md, formula and parameter descriptions), elementwise, with
the AdamW algorithm of torch.optim.AdamW (which the docs' formula writes out) for what the formula
leaves implicit:
    g        = -grad if maximize else grad
    m_t      = beta1 * m + (1 - beta1) * g
    v_t      = beta2 * v + (1 - beta2) * g^2
    v_max    = max(max_grad_norm, v_t)           (amsgrad only; max_grad_norm keeps it)
    m_hat    = m_t / (1 - beta1^step),  v_hat = (v_max if amsgrad else v_t) / (1 - beta2^step)
    var_t    = var - lr * m_hat / (sqrt(v_hat) + eps) - lr * weight_decay * var
The docs' last term reads theta_{t-1}; it is the weight before this step (torch applies the decay
to the current weight), i.e. var here. var, m, v and max_grad_norm are updated in place (the OpDef
declares no outputs); with amsgrad false max_grad_norm is not used and stays as it was. step is a
one-element float32 or int64 tensor. Attributes are float32 in the OpDef, so the golden takes them
at their float32 values. Computed in float64.
"""
import numpy as np


def _f32(a):
    return float(np.float32(a))


def apply_adam_wv2_golden(var, m, v, grad, step, max_grad_norm=None, lr=0.1, beta1=0.1, beta2=0.1,
                          weight_decay=0.1, eps=0.1, amsgrad=False, maximize=False, **_attrs):
    lr, beta1, beta2, wd, eps = (_f32(a) for a in (lr, beta1, beta2, weight_decay, eps))
    p = np.asarray(var["value"], np.float64)
    mm = np.asarray(m["value"], np.float64)
    vv = np.asarray(v["value"], np.float64)
    g = np.asarray(grad["value"], np.float64)
    if maximize:
        g = -g
    t = float(np.asarray(step["value"]).reshape(-1)[0])
    m_t = beta1 * mm + (1.0 - beta1) * g
    v_t = beta2 * vv + (1.0 - beta2) * g * g
    mx = None if max_grad_norm is None else np.asarray(max_grad_norm["value"], np.float64)
    second = v_t
    if amsgrad:
        mx = np.maximum(mx, v_t)
        second = mx
    m_hat = m_t / (1.0 - beta1 ** t)
    v_hat = second / (1.0 - beta2 ** t)
    var_t = p - lr * m_hat / (np.sqrt(v_hat) + eps) - lr * wd * p
    out = [var_t, m_t, v_t]
    if mx is not None:
        out.append(mx)
    return out
