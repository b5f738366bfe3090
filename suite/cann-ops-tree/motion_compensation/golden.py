"""Golden for MotionCompensation (cann-ops src/image/motion_compensation).

Documented semantics (docs/MotionCompensation.md, the formulas and the special cases): points is
[ndim, N] (rows x, y, z, then rows copied unchanged), timestamp [N] (uint64). Quaternions are
[w, x, y, z] (op_host/motion_compensation.cpp reads qMax[0] as w).
    t       = (timestamp_max - ts_i) / (timestamp_max - timestamp_min)      (0 when max == min)
    T       = R(conj(q_max)) (t_min - t_max)
    q_rel   = normalize(conj(q_max) * q_min)
    d       = q_rel . q_identity = w of q_rel;  theta = acos(|d|)
    q_i     = sin((1 - t) theta) / sin(theta) q_identity + sin(t theta) / sin(theta) sgn(d) q_rel
    p_out   = R(q_i) p_in + t T        (only p_in + t T when |d| >= 1 - 1e-8)
A point whose x, y or z is NaN is copied unchanged. Everything in float64.
"""
import numpy as np


def _qmul(a, b):
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return np.array([aw * bw - ax * bx - ay * by - az * bz,
                     aw * bx + ax * bw + ay * bz - az * by,
                     aw * by - ax * bz + ay * bw + az * bx,
                     aw * bz + ax * by - ay * bx + az * bw])


def _rot(q):
    """Rotation matrices of quaternions q [..., 4] (w, x, y, z), for q of any norm."""
    w, x, y, z = (q[..., i] for i in range(4))
    n = w * w + x * x + y * y + z * z
    s = np.where(n > 0, 2.0 / np.where(n > 0, n, 1.0), 0.0)
    r = np.empty(q.shape[:-1] + (3, 3))
    r[..., 0, 0] = 1 - s * (y * y + z * z)
    r[..., 0, 1] = s * (x * y - w * z)
    r[..., 0, 2] = s * (x * z + w * y)
    r[..., 1, 0] = s * (x * y + w * z)
    r[..., 1, 1] = 1 - s * (x * x + z * z)
    r[..., 1, 2] = s * (y * z - w * x)
    r[..., 2, 0] = s * (x * z - w * y)
    r[..., 2, 1] = s * (y * z + w * x)
    r[..., 2, 2] = 1 - s * (x * x + y * y)
    return r


def motion_compensation_golden(points, timestamp, out=None, timestamp_min=0, timestamp_max=0,
                               translation_min=None, translation_max=None, quaterniond_min=None,
                               quaterniond_max=None, **_):
    p = np.asarray(points["value"], np.float64)
    ts = np.asarray(timestamp["value"]).astype(np.float64)
    res = p.copy()
    tmin, tmax = int(timestamp_min), int(timestamp_max)
    t = (tmax - ts) / (tmax - tmin) if tmax != tmin else np.zeros_like(ts)
    qmax = np.asarray(quaterniond_max, np.float64)
    qmin = np.asarray(quaterniond_min, np.float64)
    qconj = qmax * np.array([1.0, -1.0, -1.0, -1.0])
    trans = _rot(qconj) @ (np.asarray(translation_min, np.float64) - np.asarray(translation_max, np.float64))
    qrel = _qmul(qconj, qmin)
    qrel = qrel / np.linalg.norm(qrel)
    d = qrel[0]
    xyz = p[:3]
    if abs(d) < 1.0 - 1e-8:
        theta = np.arccos(abs(d))
        a = np.sin((1.0 - t) * theta) / np.sin(theta)
        b = np.sin(t * theta) / np.sin(theta) * (1.0 if d >= 0 else -1.0)
        qi = a[:, None] * np.array([1.0, 0.0, 0.0, 0.0]) + b[:, None] * qrel
        moved = np.einsum("nij,jn->in", _rot(qi), xyz)
    else:
        moved = xyz.copy()
    moved = moved + t[None, :] * trans[:, None]
    keep = np.isnan(xyz).any(axis=0)
    res[:3] = np.where(keep[None, :], xyz, moved)
    return res
