"""Golden for AdaptiveAvgPool3d (cann-ops src/pooling/adaptive_avg_pool3d).

Documented semantics (docs/aclnnAdaptiveAvgPool3d.md): a 3-D adaptive average pooling whose
window sizes and strides follow from output_size alone. The docs name no window rule; like
torch.nn.functional.adaptive_avg_pool3d (the operator aclnn stands in for), output index o of
an axis of input size I and output size O averages input indices
    floor(o * I / O) <= i < ceil((o + 1) * I / O).
The kernel's tensors are channels-last: x [N, D, H, W, C] -> y [N, Dout, Hout, Wout, C]
(InferShape keeps dims 0 and 4; the aclnn wrapper transposes NCDHW to this layout first).
Computed in float64 from the stored inputs.
"""
import numpy as np


def _windows(in_size, out_size):
    return [((o * in_size) // out_size, -((-(o + 1) * in_size) // out_size)) for o in range(out_size)]


def adaptive_avg_pool3d_golden(x, y=None, output_size=None, **_attrs):
    v = np.asarray(x["value"], np.float64)
    n, d, h, w, c = v.shape
    od, oh, ow = (int(s) for s in output_size)
    out = np.empty((n, od, oh, ow, c), np.float64)
    for i, (d0, d1) in enumerate(_windows(d, od)):
        for j, (h0, h1) in enumerate(_windows(h, oh)):
            for k, (w0, w1) in enumerate(_windows(w, ow)):
                out[:, i, j, k, :] = v[:, d0:d1, h0:h1, w0:w1, :].mean(axis=(1, 2, 3))
    return out
