"""Golden for AdaptiveMaxPool3d (cann-ops src/pooling/adaptive_max_pool3d).

Documented semantics (docs/AdaptiveMaxPool3d.md, formula section): x [N, C, D, H, W]; output
(l, m, n) takes the window D in [floor(l*D/Do), ceil((l+1)*D/Do)), likewise H and W, and
    y[N, C, l, m, n]       = max over the window of x[N, C, i, j, k]
    indices[N, C, l, m, n] = the argmax, as the flat index i*H*W + j*W + k within the
                             [D, H, W] volume (torch's adaptive_max_pool3d convention).
The docs do not say which of equal maxima is reported; like torch, the first in D, H, W scan
order is. Computed from the stored inputs (a maximum is exact in any dtype).
"""
import numpy as np


def _windows(in_size, out_size):
    return [((o * in_size) // out_size, -((-(o + 1) * in_size) // out_size)) for o in range(out_size)]


def adaptive_max_pool3d_golden(x, y=None, indices=None, output_size=None, **_attrs):
    v = np.asarray(x["value"], np.float64)
    n, c, d, h, w = v.shape
    od, oh, ow = (int(s) for s in output_size)
    flat = np.arange(d * h * w, dtype=np.int64).reshape(d, h, w)
    out = np.empty((n, c, od, oh, ow), np.float64)
    idx = np.empty((n, c, od, oh, ow), np.int32)
    for i, (d0, d1) in enumerate(_windows(d, od)):
        for j, (h0, h1) in enumerate(_windows(h, oh)):
            for k, (w0, w1) in enumerate(_windows(w, ow)):
                win = v[:, :, d0:d1, h0:h1, w0:w1].reshape(n, c, -1)
                pos = np.argmax(win, axis=2)  # first of equal maxima
                out[:, :, i, j, k] = np.take_along_axis(win, pos[:, :, None], axis=2)[:, :, 0]
                idx[:, :, i, j, k] = flat[d0:d1, h0:h1, w0:w1].reshape(-1)[pos]
    return [out, idx]
