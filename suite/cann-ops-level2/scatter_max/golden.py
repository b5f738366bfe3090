"""Golden for ScatterMax (cann-ops src/math/scatter_max).

Documented semantics (docs/ScatterMax.md, after tf.raw_ops.ScatterMax): for every position i of
indices, var[indices[i], ...] = max(var[indices[i], ...], updates[i, ...]); updates has shape
indices.shape + var.shape[1:]. Repeated indices combine by max, so their order does not matter.
var is updated in place (the OpDef declares no output): the golden returns var's final contents.
Exact in every dtype (a maximum rounds nothing). Indices must lie in [0, var.shape[0]).
"""
import numpy as np


def scatter_max_golden(var, indices, updates, use_locking=False, **_attrs):
    v = np.array(var["value"], copy=True)
    idx = np.asarray(indices["value"]).astype(np.int64).reshape(-1)
    rows = v.shape[0] if v.ndim else 1
    if np.any(idx < 0) or np.any(idx >= rows):
        raise ValueError("an index lies outside [0, %d)" % rows)
    flat = v.reshape(rows, -1)
    u = np.asarray(updates["value"]).reshape(idx.size, -1)
    if u.shape[1] != flat.shape[1]:
        raise ValueError("updates must have shape indices.shape + var.shape[1:]")
    np.maximum.at(flat, idx, u.astype(flat.dtype))
    return [flat.reshape(v.shape)]
