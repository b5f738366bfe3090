"""Golden for AdaptiveMaxPool3DGrad (cann-ops src/pooling/adaptive_max_pool3d_grad).

Documented semantics (docs/AdaptiveMaxPool3dBackward.md): the backward of adaptive max
pooling; each gradient element is written back at the position of its window's maximum, and
gradients landing on the same position are summed. With x [N, C, D, H, W] and grad / argmax
[N, C, Do, Ho, Wo] (NCDHW), argmax holding the forward pass's index as a flat offset into the
[D, H, W] volume (AdaptiveMaxPool3d's indices, torch's convention):
    y[n, c].flat[argmax[n, c, o]] += grad[n, c, o]      (y zero elsewhere; y shaped like x)
Summed in float64 from the stored inputs.

The argmax a case feeds must be one a forward pass could produce: an index inside output o's
window (floor(o*I/O) <= i < ceil((o+1)*I/O) on each axis, the forward docs' formula). The
manifest lists such indices; `python3 golden.py` regenerates them (window_argmax below: a
seeded uniform choice of one element of each window).
"""
import sys
import numpy as np


def adaptive_max_pool3d_grad_golden(x, grad, argmax, y=None, **_attrs):
    g = np.asarray(grad["value"], np.float64)
    a = np.asarray(argmax["value"], np.int64)
    n, c, d, h, w = (int(s) for s in x["shape"])
    out = np.zeros((n * c, d * h * w), np.float64)
    rows = np.repeat(np.arange(n * c), a[0, 0].size)
    np.add.at(out, (rows, a.reshape(-1)), g.reshape(-1))
    return out.reshape(n, c, d, h, w)


def _windows(in_size, out_size):
    return [((o * in_size) // out_size, -((-(o + 1) * in_size) // out_size)) for o in range(out_size)]


def window_argmax(x_shape, out_dhw, seed):
    """One index inside each output window: a valid forward argmax, flat in [D, H, W]."""
    rng = np.random.default_rng(seed)
    n, c, d, h, w = x_shape
    od, oh, ow = out_dhw
    a = np.empty((n, c, od, oh, ow), np.int64)
    for i, (d0, d1) in enumerate(_windows(d, od)):
        for j, (h0, h1) in enumerate(_windows(h, oh)):
            for k, (w0, w1) in enumerate(_windows(w, ow)):
                dd = rng.integers(d0, d1, size=(n, c))
                hh = rng.integers(h0, h1, size=(n, c))
                ww = rng.integers(w0, w1, size=(n, c))
                a[:, :, i, j, k] = (dd * h + hh) * w + ww
    return a


# The manifest's cases: name -> (x shape, output D/H/W, seed).
CASES = {
    "one_element": ((1, 1, 1, 1, 1), (1, 1, 1), 1),
    "even_windows": ((1, 2, 4, 4, 4), (2, 2, 2), 2),
    "ragged_overlap": ((2, 3, 5, 7, 9), (3, 4, 5), 3),
    "nc_blocks": ((2, 65, 4, 4, 6), (2, 2, 3), 4),
    "upsample": ((1, 4, 2, 3, 3), (3, 5, 4), 5),
    "cut_wo": ((1, 2, 2, 1, 400), (1, 1, 200), 9),
    "scatter_even": ((1, 3, 16, 8, 8), (2, 1, 1), 6),
    "scatter_overlap": ((1, 3, 9, 10, 23), (2, 3, 2), 7),
    "perf": ((2, 32, 8, 16, 16), (4, 8, 8), 8),
}

if __name__ == "__main__":
    names = sys.argv[1:] or list(CASES)
    for name in names:
        xs, o, seed = CASES[name]
        vals = window_argmax(xs, o, seed).reshape(-1).tolist()
        lines = [", ".join(str(v) for v in vals[i:i + 24]) for i in range(0, len(vals), 24)]
        print(f"# {name}: x {list(xs)}, output {list(o)}")
        print("values = [\n  " + ",\n  ".join(lines) + ",\n]")
