"""Golden for BevPool (cann-ops src/math/bev_pool).

BEV pooling with precomputed ranks (the BEVPoolv2 scheme of BEVDet, which the docs describe:
frustum features gathered into BEV voxels through precomputed index maps). This operator's ranks
are element indices, one product per point:
    for every pillar i, for j in [interval_starts[i], interval_starts[i] + interval_lengths[i]):
        bev.flat[ranks_bev[j]] += depth.flat[ranks_depth[j]] * feat.flat[ranks_feat[j]]
with depth [B, N, D, fH, fW], feat [B, N, fH, fW, C] and bev [B, D_Z, D_Y, D_X, C]
(bev_feat_shape), zero where no point lands; out is bev with the channels moved forward,
[B, C, D_Z, D_Y, D_X] (BEVDet's final permute). Points outside every interval do not count.
The docs name the inputs and the attribute but give no formula; the element-wise reading of the
ranks and the output layout are taken from the operator's kernel (op_kernel/bev_pool.cpp
decodes ranks_bev over B, D_Z, D_Y, D_X, C and writes out channel-first). Computed in float64.
"""
import numpy as np


def bev_pool_golden(depth, feat, ranks_depth, ranks_feat, ranks_bev, interval_starts,
                    interval_lengths, out, bev_feat_shape, **_attrs):
    d = np.asarray(depth["value"], dtype=np.float64).reshape(-1)
    f = np.asarray(feat["value"], dtype=np.float64).reshape(-1)
    rd = np.asarray(ranks_depth["value"]).astype(np.int64).reshape(-1)
    rf = np.asarray(ranks_feat["value"]).astype(np.int64).reshape(-1)
    rb = np.asarray(ranks_bev["value"]).astype(np.int64).reshape(-1)
    st = np.asarray(interval_starts["value"]).astype(np.int64).reshape(-1)
    ln = np.asarray(interval_lengths["value"]).astype(np.int64).reshape(-1)
    b, dz, dy, dx = (int(v) for v in bev_feat_shape[:4])
    c = int(feat["shape"][4])
    bev = np.zeros(b * dz * dy * dx * c)
    sel = np.concatenate([np.arange(s, s + l) for s, l in zip(st, ln)]) if st.size else np.zeros(0, np.int64)
    np.add.at(bev, rb[sel], d[rd[sel]] * f[rf[sel]])
    return bev.reshape(b, dz, dy, dx, c).transpose(0, 4, 1, 2, 3)
