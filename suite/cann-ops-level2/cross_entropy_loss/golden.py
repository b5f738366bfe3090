"""Golden for CrossEntropyLoss (cann-ops src/loss/cross_entropy_loss).

Documented semantics (docs/aclnnCrossEntropyLoss.md; the API mirrors
torch.nn.functional.cross_entropy with class-index targets):
    lse_n        = log(sum_c exp(x[n, c]))
    log_prob     = x[n, c] - lse_n                                  (all rows, [N, C])
    l_n          = -w[y_n] * log_prob[n, y_n] * 1{y_n != ignore_index}
    reduction    'none': loss = l ([N]); 'sum': sum_n l_n; 'mean': sum_n l_n / sum_n w[y_n]
                 over the rows not ignored ([1] for 'sum' and 'mean')
w is the optional weight (all ones when left out). A negative ignore_index ignores nothing.
label_smoothing eps is not spelled out by the docs; as torch defines it:
    s_n  = -sum_c w[c] * log_prob[n, c]   (0 for ignored rows)
    loss = (1 - eps) * nll + eps / C * S, where nll is the reduction above and S reduces s the
    same way ('none': s; 'sum': sum s; 'mean': sum s / sum_n w[y_n] when a weight is given,
    sum s / N without one, N counting ignored rows too, as torch does).
zloss and lse_for_zloss are not supported yet (docs: "当前暂不支持"; lse_square_scale_for_zloss
and return_zloss must be left at their defaults): the operator leaves them unwritten, and the
golden returns None for them (unwritten by contract: neither compared nor required).
Computed in float64; the runner rounds to the outputs' dtype.
"""
import numpy as np


def cross_entropy_loss_golden(input, target, weight=None, loss=None, log_prob=None, zloss=None,
                              lse_for_zloss=None, reduction="mean", ignore_index=-100,
                              label_smoothing=0.0, lse_square_scale_for_zloss=0.0,
                              return_zloss=False, **_attrs):
    x = np.asarray(input["value"], dtype=np.float64)
    y = np.asarray(target["value"]).astype(np.int64)
    n, c = x.shape
    if y.shape != (n,):
        raise ValueError("target %s does not match input %s" % (y.shape, x.shape))
    w = np.ones(c) if weight is None or weight.get("value") is None else \
        np.asarray(weight["value"], dtype=np.float64)
    ign = -100 if ignore_index is None else int(ignore_index)
    eps = 0.0 if label_smoothing is None else float(label_smoothing)
    red = "mean" if reduction is None else str(reduction)
    if lse_square_scale_for_zloss or return_zloss:
        raise ValueError("zloss is not supported by the operator (docs)")
    keep = y != ign
    if np.any((y[keep] < 0) | (y[keep] >= c)):
        raise ValueError("a target outside [0, C) that is not ignore_index")

    m = x.max(axis=1, keepdims=True)
    lse = np.log(np.exp(x - m).sum(axis=1, keepdims=True)) + m
    logp = x - lse

    yk = np.where(keep, y, 0)
    wy = np.where(keep, w[yk], 0.0)
    nll = -wy * logp[np.arange(n), yk]
    smooth = np.where(keep, -(logp * w[None, :]).sum(axis=1), 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        if red == "none":
            out = nll if eps == 0 else (1 - eps) * nll + eps / c * smooth
        elif red == "sum":
            out = np.array([nll.sum() if eps == 0 else (1 - eps) * nll.sum() + eps / c * smooth.sum()])
        elif red == "mean":
            denom = wy.sum()
            s_denom = denom if weight is not None and weight.get("value") is not None else n
            out = np.array([nll.sum() / denom if eps == 0 else
                            (1 - eps) * nll.sum() / denom + eps / c * smooth.sum() / s_denom])
        else:
            raise ValueError("reduction must be 'none', 'mean' or 'sum', not %r" % reduction)
    return [out, logp, None, None]
