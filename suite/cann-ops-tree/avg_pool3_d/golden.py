"""Golden for AvgPool3D (cann-ops src/pooling/avg_pool3_d).

Documented semantics (docs/AvgPool3d.md): average over kD x kH x kW windows moved by the
strides, output size floor((I + 2*pad - k) / s) + 1 per axis (ceil with ceil_mode), zero
padding of pad elements on both sides; count_include_pad and divisor_override as in the aclnn
interface. The docs' formula covers the unpadded case; for padding, ceil_mode,
count_include_pad and divisor_override the golden follows torch.nn.functional.avg_pool3d,
whose parameters the interface repeats:
    window of output o on an axis: start = o*s - pad, end = min(start + k, I + pad)
    divisor = divisor_override                    if divisor_override != 0
            = (end - start) product over axes     if count_include_pad (pads counted)
            = in-range element count              otherwise
    sum over the in-range part [max(start, 0), min(end, I)).
ceil_mode drops a last window that would start in the right padding (torch's rule).
Layout: data_format "NDHWC" (the default) x [N, D, H, W, C]; "NCDHW" x [N, C, D, H, W].
Computed in float64 from the stored inputs.
"""
import numpy as np


def _three(v):
    v = [int(a) for a in v]
    return v * 3 if len(v) == 1 else v[:3]


def _out_size(i, k, s, p, ceil_mode):
    num = i + 2 * p - k
    o = (-(-num // s) if ceil_mode else num // s) + 1
    if ceil_mode and (o - 1) * s >= i + p:
        o -= 1
    return o


def _windows(i, k, s, p, o):
    res = []
    for j in range(o):
        start = j * s - p
        end = min(start + k, i + p)
        res.append((max(start, 0), min(end, i), end - start))
    return res


def avg_pool3d_golden(x, y=None, ksize=None, strides=None, pads=None, ceil_mode=False,
                      count_include_pad=True, divisor_override=0, data_format="NDHWC", **_attrs):
    v = np.asarray(x["value"], np.float64)
    if data_format == "NCDHW":
        v = np.moveaxis(v, 1, 4)
    n, d, h, w, c = v.shape
    k, s = _three(ksize), _three(strides)
    p = [int(a) for a in pads]
    if len(p) == 6:
        p = [p[0], p[2], p[4]]
    p = _three(p)
    dims = (d, h, w)
    outs = [_out_size(dims[a], k[a], s[a], p[a], ceil_mode) for a in range(3)]
    wins = [_windows(dims[a], k[a], s[a], p[a], outs[a]) for a in range(3)]
    out = np.empty((n, outs[0], outs[1], outs[2], c), np.float64)
    for i, (d0, d1, dn) in enumerate(wins[0]):
        for j, (h0, h1, hn) in enumerate(wins[1]):
            for q, (w0, w1, wn) in enumerate(wins[2]):
                total = v[:, d0:d1, h0:h1, w0:w1, :].sum(axis=(1, 2, 3))
                if divisor_override:
                    div = int(divisor_override)
                elif count_include_pad:
                    div = dn * hn * wn
                else:
                    div = (d1 - d0) * (h1 - h0) * (w1 - w0)
                out[:, i, j, q, :] = total / div
    if data_format == "NCDHW":
        out = np.moveaxis(out, 4, 1)
    if y is not None and tuple(y["shape"]) != out.shape:
        raise ValueError(f"y shape {tuple(y['shape'])} differs from the pooled shape {out.shape}")
    return out


def out_shape(x_shape, ksize, strides, pads, ceil_mode=False, data_format="NDHWC"):
    """The y shape for a manifest case."""
    xs = list(x_shape)
    ax = [2, 3, 4] if data_format == "NCDHW" else [1, 2, 3]
    k, s, p = _three(ksize), _three(strides), _three(pads)
    for a in range(3):
        xs[ax[a]] = _out_size(xs[ax[a]], k[a], s[a], p[a], ceil_mode)
    return xs
