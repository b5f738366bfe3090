import numpy as np


def softmax_golden(x, y):
    v = x["value"].astype(np.float64)
    e = np.exp(v - v.max(axis=-1, keepdims=True))
    return [(e / e.sum(axis=-1, keepdims=True)).astype(x["value"].dtype)]
