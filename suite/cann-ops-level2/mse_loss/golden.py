"""Golden for MseLoss (cann-ops src/math/mse_loss).

Documented semantics (docs/MseLoss.md, after torch.nn.MSELoss): with d = predict - label,
    reduction 'none': y = d * d elementwise (y has predict's shape)
    reduction 'mean': y = mean(d * d) over every element (one value)
    reduction 'sum':  y = sum(d * d) over every element (one value)
The default reduction is 'mean' (OpDef). Computed in float64 from the inputs as given; the
runner rounds to y's dtype (a sum beyond the dtype's range becomes inf there, as it would be
in float16 arithmetic too).
"""
import numpy as np


def mse_loss_golden(predict, label, y=None, reduction="mean", **_attrs):
    p = np.asarray(predict["value"], dtype=np.float64)
    q = np.asarray(label["value"], dtype=np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        sq = (p - q) * (p - q)
        if reduction == "none":
            return sq
        if reduction == "sum":
            r = np.sum(sq)
        elif reduction == "mean":
            r = np.mean(sq)
        else:
            raise ValueError("reduction must be 'none', 'mean' or 'sum', not %r" % (reduction,))
    r = np.asarray(r)
    return r.reshape(y["shape"]) if y is not None else r
