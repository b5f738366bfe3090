"""Golden for PadV3GradReplicate (cann-ops src/conversion/pad_v3_grad_replicate).

Documented semantics (docs/PadV3GradReplicate.md: the backward of replication_pad2d, as
aclnnReplicationPad2dBackward; torch.nn.ReplicationPad2d's gradient): x is the gradient of the
padded output [N, C, H + top + bottom, W + left + right], y the gradient of the input
[N, C, H, W]. The forward pad copies input element (clamp(i - top, 0, H-1), clamp(j - left, 0,
W-1)) to output (i, j), so every output gradient is added to the input element it came from:
the border rows/columns of y collect the sums of the pads beside them (the corners the whole
corner blocks). `paddings` is the PadV3 layout (a (before, after) pair per dimension, N first):
entries 4..7 are top, bottom, left, right. Sums in float64; the runner rounds to y's dtype.
"""
import numpy as np


def pad_v3_grad_replicate_golden(x, paddings, y=None, mode="edge", paddings_contiguous=True, **_attrs):
    if mode != "edge":
        raise ValueError("golden covers mode 'edge' only, got %r" % (mode,))
    g = np.asarray(x["value"], dtype=np.float64)
    p = [int(t) for t in np.asarray(paddings["value"]).reshape(-1)]
    top, bottom, left, right = p[4], p[5], p[6], p[7]
    n, c, ho, wo = g.shape
    h, w = ho - top - bottom, wo - left - right
    rows = np.clip(np.arange(ho) - top, 0, h - 1)
    cols = np.clip(np.arange(wo) - left, 0, w - 1)
    # Sum over rows first, then columns (each is a plain scatter-add).
    by_rows = np.zeros((n, c, h, wo))
    np.add.at(by_rows, (slice(None), slice(None), rows), g)
    out = np.zeros((n, c, h, w))
    np.add.at(out, (slice(None), slice(None), slice(None), cols), by_rows)
    return out
