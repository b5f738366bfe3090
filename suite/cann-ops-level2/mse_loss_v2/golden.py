"""Golden for MSELossV2 (cann-ops src/loss/mse_loss_v2).

Documented semantics (docs/aclnnMseLoss.md, after torch.nn.functional.mse_loss):
    l_n = (x_n - y_n)^2
    reduction 'none': output = L (x's shape)
              'sum' : output = sum(L)   (a 0-d tensor)
              'mean': output = sum(L) / N, N the element count (a 0-d tensor)
The aclnn layer broadcasts self and target before calling the operator; the operator itself
takes two tensors of one shape (its InferShape gives the output x's shape or a 0-d shape).
Computed in float64; the runner rounds to the output dtype.
"""
import numpy as np


def mse_loss_v2_golden(input, target, output=None, reduction="mean", **_attrs):
    x = np.asarray(input["value"], dtype=np.float64)
    y = np.asarray(target["value"], dtype=np.float64)
    if x.shape != y.shape:
        raise ValueError("input %s and target %s differ in shape" % (x.shape, y.shape))
    red = "mean" if reduction is None else str(reduction)
    with np.errstate(over="ignore", invalid="ignore"):
        loss = (x - y) ** 2
        if red == "none":
            return loss
        if red == "sum":
            return np.asarray(loss.sum())
        if red == "mean":
            return np.asarray(loss.sum() / loss.size)
    raise ValueError("reduction must be 'none', 'mean' or 'sum', not %r" % reduction)
