import numpy as np


def reduce_sum_golden(x, y):
    v = x["value"]
    return [v.astype(np.float64).sum(axis=-1, keepdims=True).astype(v.dtype)]
