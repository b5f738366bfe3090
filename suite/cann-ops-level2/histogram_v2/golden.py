"""Golden for HistogramV2 (cann-ops src/math/histogram_v2).

Documented semantics (docs/HistogramV2.md, "功能描述"; torch.histc): `bins` intervals of equal
width between min and max (both included); y[i] counts the elements of x in interval i, and
elements below min or above max are not counted. An element equal to max falls into the last
interval; otherwise the interval of v is floor((v - min) * bins / (max - min)).
The docs' rule "min = max = 0 means the data's own minimum and maximum" is applied by the aclnn
layer before this operator runs (op_host/aclnn_histc.cpp replaces the range with ReduceMin /
ReduceMax of x); the operator receives the range as its min and max inputs. For a degenerate
range min = max the golden widens it to [min - 1, max + 1], as torch.histc does. NaN is never
counted (it compares false with both bounds).
The interval index is computed exactly (rational arithmetic where float64 is not exact).
"""
from fractions import Fraction
import math

import numpy as np


def _scalar(t):
    v = np.asarray(t["value"]).reshape(-1)[0]
    return int(v) if np.issubdtype(np.asarray(t["value"]).dtype, np.integer) else float(v)


def histogram_v2_golden(x, min, max, y=None, bins=100, **_attrs):
    bins = int(bins)
    if bins <= 0:
        raise ValueError("bins must be positive")
    lo, hi = _scalar(min), _scalar(max)
    if lo > hi:
        raise ValueError("min > max")
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    v = np.asarray(x["value"]).reshape(-1)
    counts = np.zeros(bins, dtype=np.int64)
    if np.issubdtype(v.dtype, np.integer):
        vi = v.astype(object)
        for e in vi[(v >= lo) & (v <= hi)]:
            k = (int(e) - lo) * bins // (hi - lo)
            counts[min_(k, bins - 1)] += 1
        return counts.astype(np.int32)
    vf = v.astype(np.float64)
    inside = (vf >= lo) & (vf <= hi)
    sel = vf[inside]
    q = (sel - lo) * bins / (hi - lo)
    k = np.floor(q).astype(np.int64)
    # recompute exactly where float64 rounding could have crossed an integer
    near = np.abs(q - np.rint(q)) < 1e-6
    if np.any(near):
        flo, fhi = Fraction(lo), Fraction(hi)
        for i in np.nonzero(near)[0]:
            k[i] = math.floor((Fraction(float(sel[i])) - flo) * bins / (fhi - flo))
    k = np.minimum(k, bins - 1)
    np.add.at(counts, k, 1)
    return counts.astype(np.int32)


def min_(a, b):
    return a if a < b else b
