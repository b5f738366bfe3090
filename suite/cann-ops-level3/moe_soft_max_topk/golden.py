"""Golden for MoeSoftMaxTopk (cann-ops src/math/moe_soft_max_topk).

Documented semantics (docs/MoeSoftMaxTopk.md, README.md): softmax over the last dimension of x,
then the k largest probabilities of each row (attribute k, default 4): y holds them, largest
first, and indices their positions in the row (int32), as torch.topk(torch.softmax(x, -1), k)
gives them. The softmax is computed in float64 with the row maximum subtracted (the same value;
it keeps large logits finite). Ties are broken toward the lower index (the docs say nothing; no
case has tied probabilities).
"""
import numpy as np


def moe_soft_max_topk_golden(x, y=None, indices=None, k=4, **_attrs):
    v = np.asarray(x["value"], dtype=np.float64)
    k = int(k)
    if v.ndim != 2 or not 1 <= k <= v.shape[1]:
        raise ValueError("MoeSoftMaxTopk takes x [rows, n] and 1 <= k <= n; got %s and k=%d" % (v.shape, k))
    m = np.max(v, axis=-1, keepdims=True)
    e = np.exp(v - m)
    p = e / np.sum(e, axis=-1, keepdims=True)
    # Descending by probability, ties by ascending index: a stable sort of -p.
    order = np.argsort(-p, axis=-1, kind="stable")[:, :k]
    values = np.take_along_axis(p, order, axis=-1)
    return [values, order.astype(np.int32)]
