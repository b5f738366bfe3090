"""Golden for CrossEntropyLossGrad (cann-ops src/loss/cross_entropy_loss_grad): the gradient of
CrossEntropyLoss with respect to its logits, from grad_loss and the forward's log_prob.

Documented semantics (docs/aclnnCrossEntropyLossGrad.md, the zloss-free branch):
    mask_n   = 1{target_n != ignore_index}
    D        = sum_n w[target_n] * mask_n  for 'mean', 1 for 'sum' and 'none'
    g_n      = grad_loss (0-d for 'mean' / 'sum', [N] for 'none')
    nll_n    = g_n * (1 - eps) / D * mask_n * w[target_n]
    pred     = exp(log_prob) * nll_n - onehot(target)_n * nll_n
    s_n      = g_n * eps / C / D * mask_n;   t_nc = s_n * w[c]
    pred    += exp(log_prob) * sum_c t_nc - t_nc
    x_grad   = pred
w is the optional weight (ones when left out), eps label_smoothing. grad_zloss,
lse_for_zloss and lse_square_scale_for_zloss are not supported yet (docs) and stay out.
Computed in float64; the runner rounds to x_grad's dtype.
"""
import numpy as np


def cross_entropy_loss_grad_golden(grad_loss, log_prob, target, weight=None, grad_zloss=None,
                                   lse_for_zloss=None, x_grad=None, reduction="mean",
                                   ignore_index=-100, label_smoothing=0.0,
                                   lse_square_scale_for_zloss=0.0, **_attrs):
    g = np.asarray(grad_loss["value"], dtype=np.float64)
    lp = np.asarray(log_prob["value"], dtype=np.float64)
    t = np.asarray(target["value"]).astype(np.int64)
    n, c = lp.shape
    has_w = weight is not None and weight.get("value") is not None
    w = np.asarray(weight["value"], dtype=np.float64) if has_w else np.ones(c)
    red = "mean" if reduction is None else str(reduction)
    ign = -100 if ignore_index is None else int(ignore_index)
    eps = 0.0 if label_smoothing is None else float(label_smoothing)
    if lse_square_scale_for_zloss:
        raise ValueError("zloss is not supported by the operator (docs)")
    if (grad_zloss is not None and grad_zloss.get("value") is not None) or \
       (lse_for_zloss is not None and lse_for_zloss.get("value") is not None):
        raise ValueError("grad_zloss and lse_for_zloss are not supported by the operator (docs)")
    mask = (t != ign).astype(np.float64)
    tk = np.where(t != ign, t, 0)
    if np.any((tk < 0) | (tk >= c)):
        raise ValueError("a target outside [0, C) that is not ignore_index")
    if red == "none":
        if g.shape != (n,):
            raise ValueError("grad_loss must be [N] for reduction 'none'")
        d = 1.0
    elif red in ("mean", "sum"):
        g = np.full(n, float(g.reshape(-1)[0]))
        d = (w[tk] * mask).sum() if red == "mean" else 1.0
    else:
        raise ValueError("reduction must be 'none', 'mean' or 'sum', not %r" % reduction)
    p = np.exp(lp)
    with np.errstate(invalid="ignore", divide="ignore"):
        nll = g * (1.0 - eps) / d * mask * w[tk]
        out = p * nll[:, None]
        out[np.arange(n), tk] -= nll
        if eps != 0:
            s = g * eps / c / d * mask
            tt = s[:, None] * w[None, :]
            out += p * tt.sum(axis=1, keepdims=True) - tt
    return out
