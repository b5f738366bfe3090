"""Golden for MaxPool3DGradWithArgmax (cann-ops src/pooling/max_pool3d_grad_with_argmax).

Documented semantics (docs/MaxPool3DGradWithArgmax.md): the backward of MaxPool3dWithArgmax;
each gradient element is written back at the position of its window's maximum (argmax), and
gradients landing on the same position are summed. x, grad, argmax and y are NCDHW; argmax
holds the forward pass's index as a flat offset into the unpadded [D, H, W] volume (the
convention of torch's max_pool3d_with_indices, which the aclnn interface mirrors):
    y[n, c].flat[argmax[n, c, o]] += grad[n, c, o]      (y zero elsewhere; y shaped like x)
Summed in float64 from the stored inputs.

The argmax a case feeds must be one a forward pass could produce: an in-range position of
output o's window, start = o*s - pad .. start + k - 1 on each axis (dilation 1, the only value
the docs allow), clipped to the input. The manifest lists such indices; `python3 golden.py`
regenerates them (window_argmax: a seeded uniform choice in each window).
"""
import sys
import numpy as np


def max_pool3d_grad_with_argmax_golden(x, grad, argmax, y=None, **_attrs):
    g = np.asarray(grad["value"], np.float64)
    a = np.asarray(argmax["value"], np.int64)
    n, c, d, h, w = (int(s) for s in x["shape"])
    out = np.zeros((n * c, d * h * w), np.float64)
    rows = np.repeat(np.arange(n * c), a[0, 0].size)
    np.add.at(out, (rows, a.reshape(-1)), g.reshape(-1))
    return out.reshape(n, c, d, h, w)


def _three(v):
    v = [int(a) for a in v]
    return v * 3 if len(v) == 1 else v


def out_size(i, k, s, p, ceil_mode):
    num = i + 2 * p - k
    o = (-(-num // s) if ceil_mode else num // s) + 1
    if (o - 1) * s >= i + p:
        o -= 1
    return o


def grad_shape(x_shape, ksize, strides, pads, ceil_mode=False):
    k, s, p = _three(ksize), _three(strides), _three(pads)
    return list(x_shape[:2]) + [out_size(x_shape[2 + a], k[a], s[a], p[a], ceil_mode) for a in range(3)]


def window_argmax(x_shape, ksize, strides, pads, ceil_mode, seed):
    """One in-range index of each output window: a valid forward argmax, flat in [D, H, W]."""
    rng = np.random.default_rng(seed)
    k, s, p = _three(ksize), _three(strides), _three(pads)
    gs = grad_shape(x_shape, ksize, strides, pads, ceil_mode)
    n, c = gs[0], gs[1]
    dims = x_shape[2:]
    wins = []
    for a in range(3):
        lst = []
        for o in range(gs[2 + a]):
            start = o * s[a] - p[a]
            lst.append((max(start, 0), min(start + k[a], dims[a])))
        wins.append(lst)
    res = np.empty(gs, np.int64)
    for i, (d0, d1) in enumerate(wins[0]):
        for j, (h0, h1) in enumerate(wins[1]):
            for q, (w0, w1) in enumerate(wins[2]):
                dd = rng.integers(d0, d1, size=(n, c))
                hh = rng.integers(h0, h1, size=(n, c))
                ww = rng.integers(w0, w1, size=(n, c))
                res[:, :, i, j, q] = (dd * dims[1] + hh) * dims[2] + ww
    return res


# The manifest's cases: name -> (x shape, ksize, strides, pads, ceil_mode, seed).
CASES = {
    "one_element": ([1, 1, 1, 1, 1], [1, 1, 1], [1, 1, 1], [0, 0, 0], False, 1),
    "nosplit_even": ([1, 2, 4, 4, 4], [2, 2, 2], [2, 2, 2], [0, 0, 0], False, 2),
    "nosplit_ragged": ([2, 3, 6, 7, 9], [2, 1, 3], [2, 1, 3], [0, 0, 0], False, 3),
    "overlap": ([2, 3, 5, 7, 9], [3, 3, 3], [1, 2, 2], [0, 0, 0], False, 4),
    "pads": ([1, 4, 5, 6, 7], [3, 3, 3], [2, 2, 2], [1, 1, 1], False, 5),
    "ceil_mode": ([1, 3, 6, 7, 8], [2, 2, 2], [2, 2, 2], [0, 0, 0], True, 6),
    "ceil_mode_pads": ([2, 2, 7, 8, 10], [3, 2, 4], [2, 2, 3], [1, 1, 2], True, 7),
    "stride_over_kernel": ([1, 2, 7, 8, 9], [2, 2, 2], [3, 3, 3], [0, 0, 0], False, 8),
    "single_value_lists": ([1, 3, 6, 6, 6], [2], [2], [0], False, 9),
    "nc_blocks": ([2, 65, 4, 4, 6], [2, 2, 3], [2, 2, 2], [0, 0, 1], False, 10),
    "scatter": ([1, 3, 16, 8, 8], [8, 8, 8], [8, 8, 8], [0, 0, 0], False, 11),
    "scatter_overlap": ([1, 3, 9, 10, 23], [5, 4, 12], [4, 3, 11], [2, 2, 6], False, 12),
    "cutk_whitelist": ([1, 4, 5, 66, 132], [5, 1, 6], [8, 13, 18], [0, 0, 0], False, 13),
    "perf": ([1, 16, 8, 28, 28], [3, 3, 3], [2, 2, 2], [1, 1, 1], False, 14),
}

if __name__ == "__main__":
    for name in sys.argv[1:] or list(CASES):
        xs, k, s, p, cm, seed = CASES[name]
        vals = window_argmax(xs, k, s, p, cm, seed).reshape(-1).tolist()
        lines = [", ".join(str(v) for v in vals[i:i + 24]) for i in range(0, len(vals), 24)]
        print(f"# {name}: x {xs}, grad {grad_shape(xs, k, s, p, cm)}")
        print("values = [\n  " + ",\n  ".join(lines) + ",\n]")
