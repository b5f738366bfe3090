"""Golden for AdaptiveAvgPool3dGrad (cann-ops src/pooling/adaptive_avg_pool3d_grad).

Documented semantics (docs/AdaptiveAvgPool3dBackward.md): the backward of AdaptiveAvgPool3d.
The docs name no window rule; like torch's adaptive_avg_pool3d backward, output index o of an
axis of input size I and output size O covers input indices
    floor(o * I / O) <= i < ceil((o + 1) * I / O),
and each input element receives y_grad[o] / (window volume) from every window that holds it.
Layouts as the kernel receives them (op_host/adaptive_avg_pool3d_grad.cpp Init: y_grad
[Dout, Hout, Wout, NC], x [C, D, H, W] or [N, C, D, H, W] read for its last three dims only;
op_host/adaptive_avg_pool3d_backward.cpp gives x_grad y_grad's layout with x's D, H, W):
    x_grad [D, H, W, NC].
Computed in float64 from the stored inputs.
"""
import numpy as np


def _windows(in_size, out_size):
    return [((o * in_size) // out_size, -((-(o + 1) * in_size) // out_size)) for o in range(out_size)]


def adaptive_avg_pool3d_grad_golden(y_grad, x, x_grad=None, **_attrs):
    g = np.asarray(y_grad["value"], np.float64)
    od, oh, ow, nc = g.shape
    d, h, w = (int(s) for s in x["shape"][-3:])
    out = np.zeros((d, h, w, nc), np.float64)
    for i, (d0, d1) in enumerate(_windows(d, od)):
        for j, (h0, h1) in enumerate(_windows(h, oh)):
            for k, (w0, w1) in enumerate(_windows(w, ow)):
                out[d0:d1, h0:h1, w0:w1, :] += g[i, j, k, :] / ((d1 - d0) * (h1 - h0) * (w1 - w0))
    return out
