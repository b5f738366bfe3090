"""Golden for ForeachNonFiniteCheckAndUnscale (cann-ops src/foreach/foreach_non_finite_check_and_unscale).

Documented semantics (docs/aclnnForeachNonFiniteCheckAndUnscale.md, as
torch._amp_foreach_non_finite_check_and_unscale_): every tensor of scaled_grads is multiplied in
place by inv_scale (all of them, whether or not a non-finite value is found), and found_inf, a
one-element float tensor, is set to 1.0 when any element of any tensor is +-inf or NaN and is
left as it was otherwise. The operator has no outputs: the manifest names scaled_grads and
found_inf `inplace`, so the golden returns their final contents, in that order.
"""
import numpy as np


def foreach_non_finite_check_and_unscale_golden(scaled_grads, found_inf, inv_scale, **_attrs):
    s = np.float64(np.asarray(inv_scale["value"]).reshape(-1)[0])
    non_finite = False
    grads = []
    with np.errstate(invalid="ignore", over="ignore"):
        for t in scaled_grads:
            v = t["value"].astype(np.float64)
            non_finite = non_finite or not np.isfinite(v).all()
            grads.append(v * s)
    flag = np.asarray(found_inf["value"], dtype=np.float64).copy()
    if non_finite:
        flag[...] = 1.0
    return [grads, flag]
