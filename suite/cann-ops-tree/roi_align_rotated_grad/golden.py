"""Golden for RoiAlignRotatedGrad (cann-ops src/objdetect/roi_align_rotated_grad).

Documented semantics (docs/README.md): the backward of RoIAlignRotated: the forward averages,
per output bin of each rotated RoI, bilinear samples of the feature map; the backward sends
each bin's gradient back to the feature-map points those samples read. The docs define the
RoI as [batch_idx, center_x, center_y, w, h, angle] rotated about its centre and name the
attributes of mmcv's roi_align_rotated (pooled size, spatial_scale, sampling_ratio, aligned,
clockwise); where they stop, the golden follows that reference definition:
    cx, cy, w, h = spatial_scale * (x, y, w, h);  aligned: cx, cy -= 0.5, else w, h >= 1
    theta = -angle if clockwise else angle
    bin (ph, pw) of pooled_h x pooled_w, grid gh x gw per bin (sampling_ratio, or
    ceil(h / pooled_h) and ceil(w / pooled_w) when it is 0), count = max(gh * gw, 1)
    sample (iy, ix): yy = -h/2 + (ph + (iy + 0.5) / gh) * h / pooled_h, xx likewise
        x = yy*sin(theta) + xx*cos(theta) + cx,  y = yy*cos(theta) - xx*sin(theta) + cy
    bilinear weights of (y, x) with the usual RoIAlign border rule (skip a sample with
    y < -1, y > H, x < -1 or x > W; clamp to 0 below and to the last row/column above),
    and y_grad[b, yl/yh, xl/xh, :] += x_grad[roi, ph, pw, :] / count * weight.
Layouts as the host code and kernel take them (op_host/roi_align_rotated_grad.cpp: the RoI
count is rois' dim 1; y_grad_shape = [N, H, W, C] and InferShape gives y_grad that shape):
    x_grad [n, pooled_h, pooled_w, C], rois [6, n] (one row per field), y_grad [N, H, W, C].
Sums in float64 from the stored inputs.

The rois a case feeds must keep the documented ranges (batch_idx in [0, N), center and size in
[0, W) / [0, H), angle in [0, pi)); the manifest lists them and `python3 golden.py` regenerates
them (make_rois: seeded uniform values, integer batch indices).
"""
import math
import sys
import numpy as np


def roi_align_rotated_grad_golden(x_grad, rois, y_grad=None, y_grad_shape=None, pooled_h=None,
                                  pooled_w=None, spatial_scale=1.0, sampling_ratio=0, aligned=True,
                                  clockwise=False, **_attrs):
    g = np.asarray(x_grad["value"], np.float64)
    r = np.asarray(rois["value"], np.float64)
    nb, hh, ww, cc = (int(v) for v in y_grad_shape)
    ph_n, pw_n = int(pooled_h), int(pooled_w)
    scale = float(spatial_scale)
    out = np.zeros((nb, hh, ww, cc), np.float64)
    for k in range(r.shape[1]):
        b = int(round(r[0, k]))
        cx, cy = r[1, k] * scale, r[2, k] * scale
        rw, rh = r[3, k] * scale, r[4, k] * scale
        if aligned:
            cx -= 0.5
            cy -= 0.5
        else:
            rw, rh = max(rw, 1.0), max(rh, 1.0)
        theta = -r[5, k] if clockwise else r[5, k]
        c, s = math.cos(theta), math.sin(theta)
        bh, bw = rh / ph_n, rw / pw_n
        gh = int(sampling_ratio) if sampling_ratio > 0 else int(math.ceil(bh))
        gw = int(sampling_ratio) if sampling_ratio > 0 else int(math.ceil(bw))
        count = max(gh * gw, 1)
        for ph in range(ph_n):
            for pw in range(pw_n):
                gbin = g[k, ph, pw, :] / count
                for iy in range(gh):
                    yy = -rh / 2 + ph * bh + (iy + 0.5) * bh / gh
                    for ix in range(gw):
                        xx = -rw / 2 + pw * bw + (ix + 0.5) * bw / gw
                        x = yy * s + xx * c + cx
                        y = yy * c - xx * s + cy
                        if y < -1.0 or y > hh or x < -1.0 or x > ww:
                            continue
                        y, x = max(y, 0.0), max(x, 0.0)
                        yl, xl = int(y), int(x)
                        if yl >= hh - 1:
                            yl = yh = hh - 1
                            y = float(yl)
                        else:
                            yh = yl + 1
                        if xl >= ww - 1:
                            xl = xh = ww - 1
                            x = float(xl)
                        else:
                            xh = xl + 1
                        ly, lx = y - yl, x - xl
                        hy, hx = 1.0 - ly, 1.0 - lx
                        out[b, yl, xl, :] += gbin * hy * hx
                        out[b, yl, xh, :] += gbin * hy * lx
                        out[b, yh, xl, :] += gbin * ly * hx
                        out[b, yh, xh, :] += gbin * ly * lx
    return out


def make_rois(n, batch, height, width, seed):
    """[6, n] rois inside the documented ranges (4 decimals)."""
    rng = np.random.default_rng(seed)
    r = np.empty((6, n))
    r[0] = rng.integers(0, batch, n)
    r[1] = rng.uniform(0, width, n)
    r[2] = rng.uniform(0, height, n)
    r[3] = rng.uniform(1, width, n)
    r[4] = rng.uniform(1, height, n)
    r[5] = rng.uniform(0, math.pi, n)
    return np.round(r, 4)


# The manifest's cases: name -> (n rois, y_grad_shape [N, H, W, C], seed).
CASES = {
    "one_roi": (1, [1, 32, 32, 8], 1),
    "ragged_c19": (5, [2, 33, 40, 19], 2),
    "clockwise_unaligned": (7, [1, 48, 48, 16], 3),
    "spatial_scale_half": (6, [2, 32, 32, 8], 4),
    "many_rois": (100, [3, 32, 36, 8], 5),
    "c1024": (4, [1, 32, 32, 1024], 6),
    "pooled_10_sampling_4": (3, [1, 40, 32, 8], 7),
    "perf": (96, [2, 64, 64, 64], 8),
}

if __name__ == "__main__":
    for name in sys.argv[1:] or list(CASES):
        n, ys, seed = CASES[name]
        vals = make_rois(n, ys[0], ys[1], ys[2], seed).reshape(-1).tolist()
        lines = [", ".join(f"{v:.4f}" for v in vals[i:i + 8]) for i in range(0, len(vals), 8)]
        print(f"# {name}: rois [6, {n}] for y_grad {ys}")
        print("values = [\n  " + ",\n  ".join(lines) + ",\n]")
