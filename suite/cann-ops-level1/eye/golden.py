"""Golden for Eye (cann-ops src/math/eye): identity matrices.

Docs: creates an m x n matrix whose diagonal elements are 1 and all others 0 (m = num_rows,
n = num_columns, 0 meaning n = m); a tensor of rank > 2 holds a batch of such matrices
(batch_shape + [m, n]). y is both the input and the output (a "ref" tensor); the golden is the
documented result and does not depend on y's incoming contents (the cases pass zeros).
"""
import numpy as np


def eye_golden(y, num_rows, num_columns=0, batch_shape=None, dtype=0, **_):
    shape = list(y["shape"])
    rows = int(num_rows)
    cols = int(num_columns) if int(num_columns) != 0 else rows
    if len(shape) < 2 or shape[-2:] != [rows, cols]:
        raise ValueError("y's shape %s does not end in [num_rows, num_columns] = [%d, %d]" % (shape, rows, cols))
    if batch_shape and len(shape) > 2 and list(batch_shape) != shape[:-2]:
        raise ValueError("batch_shape %s does not match y's leading dimensions %s" % (list(batch_shape), shape[:-2]))
    out = np.zeros(shape, dtype=np.float64)
    k = np.arange(min(rows, cols))
    out[..., k, k] = 1
    return out
