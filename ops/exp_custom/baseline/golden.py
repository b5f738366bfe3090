import numpy as np


def exp_golden(x, y):
    return [np.exp(x["value"].astype(np.float64)).astype(x["value"].dtype)]
