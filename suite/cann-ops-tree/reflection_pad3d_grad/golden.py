"""Golden for ReflectionPad3dGrad (cann-ops src/conversion/reflection_pad3d_grad).

Documented semantics (docs/reflection_pad3d_grad.md: the backward of 3-D reflection padding;
torch.nn.ReflectionPad3d's gradient): x is the gradient of the padded output
[N, C, D + front + back, H + top + bottom, W + left + right], y the gradient of the input
[N, C, D, H, W]. The forward pad copies input element r(i - p_before) to output i along each of
D, H, W, where r reflects about the edges without repeating them (r(-k) = k,
r(n - 1 + k) = n - 1 - k), so each output gradient is added to the input element it came from.
`paddings` is the PadV3 layout (a (before, after) pair per dimension, N first): entries 4..9 are
front, back, top, bottom, left, right. Sums in float64; the runner rounds to y's dtype.
"""
import numpy as np


def _reflect_index(size_out, before, n):
    j = np.arange(size_out) - before
    j = np.where(j < 0, -j, j)
    j = np.where(j > n - 1, 2 * (n - 1) - j, j)
    if n < 1 or j.min() < 0 or j.max() > n - 1:
        raise ValueError("reflection pad %d does not fit size %d" % (before, n))
    return j


def reflection_pad3d_grad_golden(x, paddings, y=None, **_attrs):
    g = np.asarray(x["value"], dtype=np.float64)
    p = [int(t) for t in np.asarray(paddings["value"]).reshape(-1)]
    pads = [(p[4], p[5]), (p[6], p[7]), (p[8], p[9])]
    out = g
    for k, (before, after) in enumerate(pads):
        axis = 2 + k
        size_out = out.shape[axis]
        n = size_out - before - after
        idx = _reflect_index(size_out, before, n)
        shape = list(out.shape)
        shape[axis] = n
        acc = np.zeros(shape)
        sl = [slice(None)] * out.ndim
        sl[axis] = idx
        np.add.at(acc, tuple(sl), out)
        out = acc
    return out
