"""Golden for Gather (cann-ops src/math/gather).

Documented semantics (docs/Gather.md): the operator gathers data from x1 at the positions the
indices name; batchDims is the number of leading batch dimensions; validateIndices,
isPreprocessed and negativeIndexSupport have no effect on the result. The docs give no formula;
the golden follows TensorFlow's Gather with batch_dims (the operator ships a TF plugin), which
gathers along the first non-batch axis, axis = batch_dims:
    y[b..., i..., r...] = x1[b..., indices[b..., i...], r...]
    y.shape = x1.shape[:B] + indices.shape[B:] + x1.shape[B+1:]
A negative batch_dims counts from the end (every case where it is negative has x1 and indices of
the same rank, where TensorFlow's rule, counting from indices' rank, agrees with the tiling's,
counting from x1's). Indices are in range in every case. Exact: elements are copied.
"""
import numpy as np


def gather_golden(x1, indices, y=None, batch_dims=0, **_attrs):
    x = np.asarray(x1["value"])
    idx = np.asarray(indices["value"]).astype(np.int64)
    b = int(batch_dims)
    if b < 0:
        b += idx.ndim
    if not 0 <= b <= min(idx.ndim, x.ndim - 1):
        raise ValueError("batch_dims %d out of range" % b)
    if x.shape[:b] != idx.shape[:b]:
        raise ValueError("batch dimensions differ: %s vs %s" % (x.shape[:b], idx.shape[:b]))
    n = x.shape[b]
    if idx.size and (idx.min() < 0 or idx.max() >= n):
        raise ValueError("an index is outside [0, %d)" % n)
    batch = int(np.prod(x.shape[:b], dtype=np.int64))
    xb = x.reshape((batch,) + x.shape[b:])
    ib = idx.reshape(batch, -1)
    out = np.stack([xb[k][ib[k]] for k in range(batch)])
    return out.reshape(x.shape[:b] + idx.shape[b:] + x.shape[b + 1:])
