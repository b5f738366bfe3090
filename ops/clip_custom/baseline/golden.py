import numpy as np


def clip_golden(x, y, lower, upper):
    v = x["value"]
    lo, hi = v.dtype.type(lower), v.dtype.type(upper)
    return [np.minimum(np.maximum(v, lo), hi)]
