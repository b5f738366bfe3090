"""Golden for Radius (cann-ops src/math/radius).

Documented semantics (docs/Radius.md: neighbour indices within radius r, returned as index
pairs; the attributes r, max_num_neighbors, ignore_same_index and the CSR batch pointers ptr_x /
ptr_y are torch_cluster.radius's, which the golden follows): for each point y[i], in order, the
points x[j] with ||x[j] - y[i]||_2 <= r are taken in increasing j, at most max_num_neighbors of
them, skipping j == i when ignore_same_index is set; with ptr_x / ptr_y (batch b holds x rows
ptr_x[b] .. ptr_x[b+1]-1 and y rows ptr_y[b] .. ptr_y[b+1]-1) only x points of y[i]'s batch are
candidates. The E pairs are returned as a [2, E] tensor in the operator's output layout (the
docs give none): the x indices first, then the y indices (torch_cluster stacks y first). out is
allocated as [2, max_num_neighbors * len(y)]; every case is built so that each y point has at
least max_num_neighbors neighbours, which fills it exactly. Distances in float64.
"""
import numpy as np


def radius_golden(x, y, ptr_x=None, ptr_y=None, out=None, r=0.0, max_num_neighbors=0,
                  ignore_same_index=False, **_attrs):
    xv = np.asarray(x["value"], dtype=np.float64)
    yv = np.asarray(y["value"], dtype=np.float64)
    k = int(max_num_neighbors)
    if ptr_y is not None and ptr_y.get("value") is not None:
        px = np.asarray(ptr_x["value"]).astype(np.int64)
        py = np.asarray(ptr_y["value"]).astype(np.int64)
        ranges = []
        for b in range(len(py) - 1):
            for i in range(py[b], py[b + 1]):
                ranges.append((i, px[b], px[b + 1]))
    else:
        ranges = [(i, 0, len(xv)) for i in range(len(yv))]
    cols, rows = [], []
    for i, start, end in ranges:
        count = 0
        for j in range(start, end):
            if ignore_same_index and j == i:
                continue
            if np.sqrt(np.sum((xv[j] - yv[i]) ** 2)) <= float(r):
                cols.append(j)
                rows.append(i)
                count += 1
                if count == k:
                    break
    result = np.array([cols, rows], dtype=np.float64)
    if out is not None and tuple(result.shape) != tuple(out["shape"]):
        raise ValueError("the case does not fill out: %d pairs for out %s" % (result.shape[1], out["shape"]))
    return result
