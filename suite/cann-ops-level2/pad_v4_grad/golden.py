"""Golden for PadV4Grad (cann-ops src/conversion/pad_v4_grad): the gradient of reflection
padding.

Documented semantics (docs/aclnnReflectionPad1dBackward.md: the backward of reflection_pad1d,
torch's reflection padding; example grad [1, 1, 1, 1, 1], self [0, 1, 2], padding [1, 1] gives
[1, 3, 1]): the forward pads an axis of size n by p1 in front and p2 behind, padded position i
reading input position r(i - p1) with r(t) = -t for t < 0, 2(n - 1) - t for t >= n (p1, p2 < n).
The backward sums the incoming gradient x over every padded position reading each input
position:  y[j] = sum of x[i] over i with r(i - p1) = j,  axis by axis (the operator pads the
last two axes H and W of its 4-D NCHW tensors, the 2-D reflection pad).
paddings lists (front, end) per axis when paddings_contiguous (the default), N, C, H, W in
order; N and C pads are 0. Sums are exact in float64; the runner rounds to y's dtype.
"""
import numpy as np


def _reflect_map(n_out, p1, p2):
    n_in = n_out + p1 + p2
    t = np.arange(n_in) - p1
    t = np.where(t < 0, -t, t)
    t = np.where(t >= n_out, 2 * (n_out - 1) - t, t)
    if np.any((t < 0) | (t >= n_out)):
        raise ValueError("padding (%d, %d) not smaller than the size %d" % (p1, p2, n_out))
    return t


def pad_v4_grad_golden(x, paddings, y=None, mode="reflect", paddings_contiguous=True, **_attrs):
    g = np.asarray(x["value"], dtype=np.float64)
    p = np.asarray(paddings["value"]).astype(np.int64).reshape(-1)
    if mode not in (None, "reflect"):
        raise ValueError("only mode 'reflect' has a kernel (op_kernel/pad_v4_grad.cpp)")
    if g.ndim != 4 or p.size != 8:
        raise ValueError("x must be 4-D (NCHW) with 8 paddings")
    pairs = p.reshape(4, 2) if paddings_contiguous in (None, True) else p.reshape(2, 4).T
    if np.any(pairs[:2] != 0) or np.any(pairs < 0):
        raise ValueError("N and C pads must be 0, H and W pads non-negative")
    (h1, h2), (w1, w2) = pairs[2], pairs[3]
    n, c, hin, win = g.shape
    hout, wout = hin - h1 - h2, win - w1 - w2
    rh, rw = _reflect_map(hout, h1, h2), _reflect_map(wout, w1, w2)
    out = np.zeros((n, c, hout, wout))
    tmp = np.zeros((n, c, hout, win))
    np.add.at(tmp, (slice(None), slice(None), rh), g)
    np.add.at(out, (slice(None), slice(None), slice(None), rw), tmp)
    return out
