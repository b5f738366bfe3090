"""Golden for ScatterElementsV2 (cann-ops src/index/scatter_elements_v2).

Documented semantics (docs/ScatterElementsV2.md, torch's scatter_ / scatter_add_): var is
updated in place along `axis` (the kernel supports the last axis only, see the manifest):
    reduction "none": var[..., indices[..., k]] = updates[..., k]
    reduction "add" : var[..., indices[..., k]] += updates[..., k]
for every position of indices; indices' shape may be smaller than updates' in every axis and
smaller than var's outside `axis` (only updates' leading indices-shaped block is used). Indices
lie in [0, var.shape[axis]). With "none", two updates to one element leave it undefined (torch),
so the golden refuses duplicate indices in a row. Sums are exact in float64 (integers in
int64); the runner rounds to var's dtype.
"""
import numpy as np


def scatter_elements_v2_golden(var, indices, updates, axis=0, reduction="none", **_attrs):
    v = np.asarray(var["value"])
    idx = np.asarray(indices["value"]).astype(np.int64)
    up = np.asarray(updates["value"])
    nd = v.ndim
    ax = int(axis) + nd if int(axis) < 0 else int(axis)
    if idx.ndim != nd or up.ndim != nd or not 0 <= ax < nd:
        raise ValueError("var %s, indices %s, updates %s, axis %r" % (v.shape, idx.shape, up.shape, axis))
    for d in range(nd):
        if idx.shape[d] > up.shape[d] or (d != ax and idx.shape[d] > v.shape[d]):
            raise ValueError("indices %s does not fit updates %s / var %s" % (idx.shape, up.shape, v.shape))
    if np.any((idx < 0) | (idx >= v.shape[ax])):
        raise ValueError("an index outside [0, %d)" % v.shape[ax])
    is_int = np.issubdtype(v.dtype, np.integer) or v.dtype == np.bool_
    out = v.astype(np.int64 if is_int else np.float64).copy()
    upb = up[tuple(slice(0, s) for s in idx.shape)].astype(out.dtype)
    # the position in var of every index entry: its own coordinates, with the index on `axis`
    coords = list(np.indices(idx.shape))
    coords[ax] = idx
    red = "none" if reduction is None else str(reduction)
    if red == "none":
        flat = np.ravel_multi_index(coords, v.shape).reshape(-1)
        if len(np.unique(flat)) != flat.size:
            raise ValueError("duplicate indices with reduction 'none' leave the result undefined")
        out[tuple(coords)] = upb
    elif red == "add":
        np.add.at(out, tuple(coords), upb)
    else:
        raise ValueError("reduction must be 'none' or 'add' (the operator refuses 'mul'), not %r" % reduction)
    return out
