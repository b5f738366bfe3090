"""Golden for CircularPad (cann-ops src/conversion/circular_pad).

Documented semantics (docs/aclnnCircularPad2d.md): the output is the input padded circularly
(wrapping around) on its last dimensions; out size per padded dimension = in size + both pads.
The kernel's `paddings` input is the PadV3 layout the aclnn layer builds (GetPaddingTensor in
op_host/aclnn_circular_pad2d.cpp): one (before, after) pair per dimension of x, outermost
dimension first. The tiling reads the last two pairs (H, W) and, when there are at least six
values, the third-last pair (the dimension before H, "front/back").
Negative pads crop. The docs show only positive pads; for negative ones the golden follows
PyTorch's circular padding (torch.nn.functional.pad, mode="circular"): each dimension is first
cropped by its negative pads, then the cropped extent is wrapped around by the positive pads.
Pure data movement: exact in every dtype.
"""
import numpy as np


def circular_pad_golden(x, paddings, y=None, **_attrs):
    v = np.asarray(x["value"])
    p = [int(t) for t in np.asarray(paddings["value"]).reshape(-1)]
    if len(p) % 2 or len(p) // 2 > v.ndim:
        raise ValueError("paddings %r do not fit x of rank %d" % (p, v.ndim))
    pairs = [(0, 0)] * (v.ndim - len(p) // 2) + [(p[2 * i], p[2 * i + 1]) for i in range(len(p) // 2)]
    for axis, (before, after) in enumerate(pairs):
        n = v.shape[axis]
        sl = [slice(None)] * v.ndim
        sl[axis] = slice(max(-before, 0), n - max(-after, 0))
        v = v[tuple(sl)]
        pad = [(0, 0)] * v.ndim
        pad[axis] = (max(before, 0), max(after, 0))
        if pad[axis] != (0, 0):
            if max(pad[axis]) > v.shape[axis]:
                raise ValueError("pad %r wraps more than once around %d" % (pairs[axis], v.shape[axis]))
            v = np.pad(v, pad, mode="wrap")
    return v.astype(np.float64)
