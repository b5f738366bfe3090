"""Golden for DiagV2 (cann-ops src/math/diag_v2).

Documented semantics (docs/DiagV2.md, "功能描述"; torch.diag): for a two-dimensional input,
y is the one-dimensional vector of the diagonal that `diagonal` names: 0 the main diagonal,
k > 0 the k-th above it, k < 0 the |k|-th below it; y[i] = x[i, i + k] for k >= 0 and
x[i - k, i] for k < 0 (its length is given by InferShape in op_host/diag_v2.cpp). The kernel
handles the two-dimensional input only (its tiling refuses other ranks); the docs' vector ->
matrix direction is not this kernel's. The result copies input elements, so it is exact for
every dtype (complex64 included).
"""
import numpy as np


def diag_v2_golden(x, y=None, diagonal=0, **_attrs):
    v = np.asarray(x["value"])
    if v.ndim != 2:
        raise ValueError("DiagV2's kernel takes a two-dimensional x, got shape %s" % (v.shape,))
    return np.diagonal(v, offset=int(diagonal)).copy()
