"""Golden for DiagFlat (cann-ops src/conversion/diag_flat).

Documented semantics (docs/DiagFlat.md, after torch.diagflat): x is flattened to a vector of N
elements, which is placed on the `diagonal`-th diagonal (0 the main one, > 0 above, < 0 below)
of an (N + |diagonal|) x (N + |diagonal|) matrix; every other element is zero. Exact in every
dtype (complex64 included: the golden keeps the complex values).
"""
import numpy as np


def diag_flat_golden(x, y=None, diagonal=0, **_attrs):
    v = np.asarray(x["value"]).reshape(-1)
    return np.diagflat(v, int(diagonal))
