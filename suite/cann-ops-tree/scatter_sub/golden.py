"""Golden for ScatterSub (cann-ops src/math/scatter_sub).

Documented semantics (docs/ScatterSub.md, after tf.raw_ops.ScatterSub): for every position i of
indices, var[indices[i], ...] -= updates[i, ...]; updates has shape indices.shape +
var.shape[1:]. Repeated indices subtract every one of their updates (the sum of a row's updates
is subtracted). var is updated in place (the OpDef declares no output): the golden returns var's
final contents. Floats are computed in float64, integers exactly in int64 (the cases keep int8
results inside int8). Indices must lie in [0, var.shape[0]).
"""
import numpy as np


def scatter_sub_golden(var, indices, updates, use_locking=False, **_attrs):
    v0 = np.asarray(var["value"])
    integer = np.issubdtype(v0.dtype, np.integer)
    work = np.array(v0, dtype=np.int64 if integer else np.float64, copy=True)
    idx = np.asarray(indices["value"]).astype(np.int64).reshape(-1)
    rows = work.shape[0] if work.ndim else 1
    if np.any(idx < 0) or np.any(idx >= rows):
        raise ValueError("an index lies outside [0, %d)" % rows)
    flat = work.reshape(rows, -1)
    u = np.asarray(updates["value"]).astype(work.dtype).reshape(idx.size, -1)
    if u.shape[1] != flat.shape[1]:
        raise ValueError("updates must have shape indices.shape + var.shape[1:]")
    np.subtract.at(flat, idx, u)
    return [flat.reshape(v0.shape)]
