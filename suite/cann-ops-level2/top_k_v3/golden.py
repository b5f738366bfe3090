"""Golden for TopKV3 (cann-ops src/index/top_k_v3).

Documented semantics (docs/TopKV3.md, after torch.topk): the k largest (largest = true) or
smallest values of x along the last axis, sorted (largest first, or smallest first), with
their positions along that axis. values keeps x's dtype and shape with the last axis k;
indices is int32 (the OpDef). k comes from the int32 tensor `k` (one element). The cases give
rows of distinct values, so the order and the indices are unique (torch leaves the order of
equal values unspecified; the golden refuses a tie that reaches the top k).
"""
import numpy as np


def top_k_v3_golden(x, k, values=None, indices=None, sorted=True, dim=-1, largest=True, **_attrs):
    xv = np.asarray(x["value"], dtype=np.float64)
    kk = int(np.asarray(k["value"]).reshape(-1)[0])
    d = -1 if dim is None else int(dim)
    if d not in (-1, xv.ndim - 1):
        raise ValueError("the operator sorts the last axis only (dim %r)" % dim)
    if not sorted:
        raise ValueError("sorted = false is not supported (docs)")
    n = xv.shape[-1]
    if not 1 <= kk <= n:
        raise ValueError("k %d outside [1, %d]" % (kk, n))
    rows = xv.reshape(-1, n)
    key = -rows if largest else rows
    order = np.argsort(key, axis=1, kind="stable")[:, :kk]
    vals = np.take_along_axis(rows, order, axis=1)
    # a tie between the k-th value and the next would make the indices ambiguous
    if kk < n:
        nxt = np.take_along_axis(rows, np.argsort(key, axis=1, kind="stable")[:, kk:kk + 1], axis=1)
        if np.any(nxt[:, 0] == vals[:, -1]):
            raise ValueError("equal values at the k-th place: the indices are not unique")
    for r in range(rows.shape[0]):
        if len(np.unique(vals[r])) != kk:
            raise ValueError("equal values among the top k of row %d: the order is not unique" % r)
    shape = xv.shape[:-1] + (kk,)
    return [vals.reshape(shape), order.astype(np.int32).reshape(shape)]
