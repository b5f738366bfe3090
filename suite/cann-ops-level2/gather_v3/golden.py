"""Golden for GatherV3 (cann-ops src/index/gather_v3).

Documented semantics (docs/aclnnIndexSelect.md, the operator's aclnn entry; op_host/
gather_v3_def.cpp for the operator's own inputs): select slices of x along `axis` by the
entries of `indices`:
    y = x[..., indices[...], ...]   out[l][j][n] = x[l][indices[j]][n] for axis 1 (docs)
with batchDims (the OpDef's attribute, TensorFlow's gather batch_dims): the first batchDims
axes of indices index the first batchDims axes of x in lockstep, so with
    B = x.shape[:batchDims], P = x.shape[batchDims:axis], A = x.shape[axis + 1:]
    y[b, p, j, a] = x[b, p, indices[b, j], a]
and y's shape is x.shape[:axis] + indices.shape[batchDims:] + x.shape[axis + 1:] (the OpDef's
InferShape). axis is an int64 tensor of one element; a negative axis counts from the end. A 0-d
x is taken as shape (1,) (InferShape). Indices must lie in [0, x.shape[axis]) (docs: no
out-of-range indices; negativeIndexSupport is left false). The copy is exact.
"""
import numpy as np


def gather_v3_golden(x, indices, axis, y=None, batchDims=0, negativeIndexSupport=False, **_attrs):
    xv = np.asarray(x["value"])
    if xv.ndim == 0:
        xv = xv.reshape(1)
    idx = np.asarray(indices["value"]).astype(np.int64)
    ax = int(np.asarray(axis["value"]).reshape(-1)[0])
    if ax < 0:
        ax += xv.ndim
    bd = 0 if batchDims is None else int(batchDims)
    if bd < 0:
        bd += idx.ndim
    if not 0 <= ax < xv.ndim or not 0 <= bd <= min(ax, idx.ndim - 1 if idx.ndim else 0):
        raise ValueError("axis %r / batchDims %r do not fit x %s, indices %s" % (ax, bd, xv.shape, idx.shape))
    if xv.shape[:bd] != idx.shape[:bd]:
        raise ValueError("batch axes of x %s and indices %s differ" % (xv.shape, idx.shape))
    g = xv.shape[ax]
    if negativeIndexSupport:
        idx = np.where(idx < 0, idx + g, idx)
    if np.any((idx < 0) | (idx >= g)):
        raise ValueError("an index outside [0, %d)" % g)
    bs = int(np.prod(xv.shape[:bd], dtype=np.int64))
    ps = int(np.prod(xv.shape[bd:ax], dtype=np.int64))
    as_ = int(np.prod(xv.shape[ax + 1:], dtype=np.int64))
    gy = int(np.prod(idx.shape[bd:], dtype=np.int64))
    xr = xv.reshape(bs, ps, g, as_)
    ir = idx.reshape(bs, gy)
    out = xr[np.arange(bs)[:, None, None], np.arange(ps)[None, :, None], ir[:, None, :]]
    return out.reshape(xv.shape[:ax] + idx.shape[bd:] + xv.shape[ax + 1:])
