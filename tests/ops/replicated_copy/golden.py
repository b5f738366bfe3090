import numpy as np


def replicated_copy_golden(x, **_):
    return np.asarray(x["value"], dtype=np.float64)
