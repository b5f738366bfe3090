"""Golden for ScatterReduce (cann-ops src/math/scatter_reduce).

Documented semantics (docs/ScatterReduce.md, after torch.Tensor.scatter_reduce): y starts as a
copy of x; every element src[p] is reduced into y at the position p with its coordinate along
`dim` replaced by index[p]. reduce is "sum", "prod", "mean", "amax" or "amin". With
include_self (default true) the original x value takes part in the reduction (and, for "mean",
in the count); without it a position that receives values is the reduction of those values
alone, and a position that receives none keeps x. index has src's shape; the other dimensions
of src equal x's (the operator's tiling reads them from x). Computed in float64; the runner
rounds to y's dtype.
"""
import numpy as np

_OPS = ("sum", "prod", "mean", "amax", "amin")


def scatter_reduce_golden(x, index, src, y=None, dim=0, reduce="sum", include_self=True, **_attrs):
    if reduce not in _OPS:
        raise ValueError("reduce must be one of %s, not %r" % (_OPS, reduce))
    xv = np.asarray(x["value"], dtype=np.float64)
    iv = np.asarray(index["value"]).astype(np.int64)
    sv = np.asarray(src["value"], dtype=np.float64)
    d = int(dim) % xv.ndim
    if iv.shape != sv.shape:
        raise ValueError("index and src must have one shape")
    if np.any(iv < 0) or np.any(iv >= xv.shape[d]):
        raise ValueError("an index lies outside [0, %d)" % xv.shape[d])
    # Target coordinates of every src element.
    coords = list(np.indices(sv.shape))
    coords[d] = iv
    flat = np.ravel_multi_index(tuple(coords), xv.shape).reshape(-1)
    vals = sv.reshape(-1)
    out = xv.reshape(-1).copy()
    count = np.bincount(flat, minlength=out.size)
    hit = count > 0
    if reduce in ("sum", "mean"):
        acc = np.zeros(out.size)
        np.add.at(acc, flat, vals)
    elif reduce == "prod":
        acc = np.ones(out.size)
        np.multiply.at(acc, flat, vals)
    elif reduce == "amax":
        acc = np.full(out.size, -np.inf)
        np.maximum.at(acc, flat, vals)
    else:
        acc = np.full(out.size, np.inf)
        np.minimum.at(acc, flat, vals)
    base = out.copy()
    if include_self:
        if reduce in ("sum", "mean"):
            acc = acc + base
        elif reduce == "prod":
            acc = acc * base
        elif reduce == "amax":
            acc = np.maximum(acc, base)
        else:
            acc = np.minimum(acc, base)
        n = count + 1
    else:
        n = count
    if reduce == "mean":
        acc = acc / np.where(n == 0, 1, n)
    out = np.where(hit, acc, base)
    return out.reshape(xv.shape)
