import numpy as np


def sqrt_golden(x, y):
    return [np.sqrt(x["value"].astype(np.float64)).astype(x["value"].dtype)]
