"""Golden for ForeachRoundOffNumber (cann-ops src/foreach/foreach_round_off_number).

Documented semantics (docs/aclnnForeachRoundOffNumber.md): y_i = round(x_i, roundMode) for every
tensor x_i of the list, with roundMode (an int8 scalar tensor) selecting the rule:
  1 round half to even, 2 toward -inf (floor), 3 toward +inf (ceil), 4 round half away from
  zero, 5 toward zero (trunc), 6 round to nearest odd;
  any other value: "round half to even where precision would be lost, otherwise no rounding".
The rounding is to integer values (the docs' examples of the modes are rounding rules, and the
result keeps x's floating dtype). For the other values the golden returns x unchanged: the output
has x's own dtype, so no precision is lost. Mode 6 is ambiguous (round-to-odd of what precision)
and the golden refuses it; no case uses it. Infinities and NaN are left as they are by every
rule (as torch's rounding functions do).
"""
import numpy as np


def _round(v, mode):
    if mode == 1:
        return np.rint(v)
    if mode == 2:
        return np.floor(v)
    if mode == 3:
        return np.ceil(v)
    if mode == 4:
        with np.errstate(invalid="ignore"):
            return np.where(np.isfinite(v), np.sign(v) * np.floor(np.abs(v) + 0.5), v)
    if mode == 5:
        return np.trunc(v)
    if mode == 6:
        raise ValueError("roundMode 6 (nearest odd) is not defined precisely enough for a golden")
    return v


def foreach_round_off_number_golden(x, roundMode, y=None, **_attrs):
    mode = int(np.asarray(roundMode["value"]).reshape(-1)[0])
    return [_round(t["value"].astype(np.float64), mode) for t in x]
