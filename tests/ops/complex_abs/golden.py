import numpy as np


def complex_abs_golden(x, scale, y, **_):
    assert x["value"].dtype == np.complex64, x["value"].dtype
    return np.abs(x["value"].astype(np.complex128)) * float(np.asarray(scale["value"]).reshape(-1)[0])
