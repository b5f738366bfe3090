"""Golden for EmbeddingBag (cann-ops src/index/embedding_bag).

Semantics (docs/aclnnEmbeddingBag.md: rows of weight picked by indices, grouped into bags by
offsets, reduced by sum, mean or max; the argument list is PyTorch's embedding_bag, so the
details the docs leave open follow torch.ops.aten._embedding_bag on the CPU):
  bag b holds indices[offsets[b] : offsets[b + 1]] (the last bag runs to the end of indices;
  with include_last_offset the last offset only closes the last bag);
  an index equal to padding_idx is skipped (padding_idx < 0: none is);
  y[b]          sum / mean / elementwise max of the kept rows (sum: each row scaled by
                per_sample_weight first when given); a bag with no kept row gives zeros;
  offset2bag[k] the bag that indices[k] belongs to (padding entries included);
  bag_size[b]   number of kept rows for mean and max, 0 for sum (torch computes it for sum only
                when a gradient is needed);
  max_indices   max: [bags, dim], the index whose row gave each maximum (the first on ties,
                as torch keeps the earlier row when a later one is not greater); sum and mean:
                [bags], a copy of bag_size (torch's CPU kernel returns bag_size there).
Computed in float64 from the inputs as stored.
"""
import numpy as np


def embedding_bag_golden(weight, indices, offsets, y, offset2bag, bag_size, max_indices,
                         per_sample_weight=None, mode="mean", include_last_offset=False,
                         padding_idx=-1, **_attrs):
    w = np.asarray(weight["value"], dtype=np.float64)
    idx = np.asarray(indices["value"]).astype(np.int64).reshape(-1)
    off = np.asarray(offsets["value"]).astype(np.int64).reshape(-1)
    psw = None
    if per_sample_weight is not None and per_sample_weight.get("value") is not None:
        psw = np.asarray(per_sample_weight["value"], dtype=np.float64).reshape(-1)
    n = idx.size
    bags = off.size - 1 if include_last_offset else off.size
    ends = list(off[1:bags + 1]) if include_last_offset else list(off[1:]) + [n]
    dim = w.shape[1]
    out = np.zeros((bags, dim))
    o2b = np.zeros(n, dtype=np.int64)
    size = np.zeros(bags, dtype=np.int64)
    maxi = np.zeros((bags, dim), dtype=np.int64)
    for b in range(bags):
        lo, hi = int(off[b]), int(ends[b])
        o2b[lo:hi] = b
        kept = [k for k in range(lo, hi) if idx[k] != padding_idx or padding_idx < 0]
        if mode == "max":
            for j, k in enumerate(kept):
                row = w[idx[k]]
                if j == 0:
                    out[b] = row
                    maxi[b] = idx[k]
                else:
                    better = row > out[b]
                    out[b] = np.where(better, row, out[b])
                    maxi[b] = np.where(better, idx[k], maxi[b])
        else:
            for k in kept:
                out[b] += w[idx[k]] * (psw[k] if (psw is not None and mode == "sum") else 1.0)
            if mode == "mean" and kept:
                out[b] /= len(kept)
        size[b] = 0 if mode == "sum" else len(kept)
    if mode == "max":
        mi = maxi
    else:
        mi = size.copy()
    return [out, o2b, size, mi]
