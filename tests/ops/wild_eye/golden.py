import numpy as np


def wild_eye_golden(y, num_rows, num_columns=0, batch_shape=(), **_):
    columns = num_columns or num_rows
    out = np.zeros(list(batch_shape) + [num_rows, columns], dtype=np.float64)
    for i in range(min(num_rows, columns)):
        out[..., i, i] = 1.0
    if list(out.shape) != list(y["shape"]):
        raise ValueError("y's shape %s is not batch_shape + [num_rows, num_columns] %s" % (y["shape"], list(out.shape)))
    return out
