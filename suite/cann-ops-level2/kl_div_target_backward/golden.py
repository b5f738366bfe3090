"""Golden for KlDivTargetBackward (cann-ops src/math/kl_div_target_backward).

Documented semantics (docs/KlDivTargetBackward.md), elementwise over same-shaped tensors:
    log_target = true:   tmp = grad_output * (target + 1 - self) * exp(target)
    log_target = false:  tmp = grad_output * (ln(target) + 1 - self)   where target > 0
                         tmp = 0                                        where target == 0
    grad_target = tmp / N  for reduction = 1 ('mean'), tmp otherwise ('none' = 0, 'sum' = 2).
The docs' formula writes N as target.size(0) but describe reduction 1 as the mean of the loss;
the mean of an elementwise loss (PyTorch's kl_div with reduction='mean', whose target gradient
this operator is) divides by the number of elements, so N is target's element count here. The
two agree for 1-D tensors. Negative targets with log_target = false are outside the documented
domain (no case uses them). Computed in float64; the runner rounds to the output dtype.
"""
import numpy as np


def kl_div_target_backward_golden(grad_output, self, target, grad_target=None, reduction=0,
                                  log_target=False, **_attrs):
    g = np.asarray(grad_output["value"], dtype=np.float64)
    s = np.asarray(self["value"], dtype=np.float64)
    t = np.asarray(target["value"], dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if log_target:
            tmp = g * (t + 1.0 - s) * np.exp(t)
        else:
            if np.any(t < 0):
                raise ValueError("target < 0 with log_target = false is outside the documented domain")
            tmp = np.where(t == 0, 0.0, g * (np.log(np.where(t == 0, 1.0, t)) + 1.0 - s))
    if int(reduction) == 1:
        tmp = tmp / t.size
    return tmp
