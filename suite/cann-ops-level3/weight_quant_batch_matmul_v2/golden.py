"""Golden for WeightQuantBatchMatmulV2 (cann-ops src/matmul/weight_quant_batch_matmul_v2).

Documented semantics (doc/aclnnWeightQuantBatchMatmulV2.md):
    ANTIQUANT(weight) = (weight + antiquant_offset) * antiquant_scale
    y = x @ ANTIQUANT(weight) + bias
(the quantized-output form with quant_scale is not used by the cases). x is [m, k] (transpose_x:
[k, m]), weight [k, n] (transpose_weight: [n, k]). antiquant_scale and antiquant_offset are
per tensor ([1] or [1, 1]), per channel ([n] or [1, n]) or per group ([ceil(k / g), n] with
g = antiquant_group_size: row r of the weight uses group r // g). bias is [n] or [1, n].
Computed exactly in float64 from the input values; the comparison rounds y to its dtype.
"""
import numpy as np


def weight_quant_batch_matmul_v2_golden(x, weight, antiquant_scale, antiquant_offset=None, quant_scale=None,
                                        quant_offset=None, bias=None, y=None, transpose_x=False,
                                        transpose_weight=False, antiquant_group_size=0, **_attrs):
    if quant_scale is not None and quant_scale.get("value") is not None:
        raise ValueError("quant_scale (an aclnnTransQuantParam encoding) is not modelled by this golden")
    a = np.asarray(x["value"], dtype=np.float64)
    if transpose_x:
        a = a.T
    w = np.asarray(weight["value"]).astype(np.float64)
    if transpose_weight:
        w = w.T  # now [k, n]
    k, n = w.shape
    if a.shape[1] != k:
        raise ValueError("WeightQuantBatchMatmulV2: x %s and weight (as [k, n]) %s disagree on k" % (a.shape, w.shape))

    def expand(t):
        v = np.asarray(t["value"], dtype=np.float64)
        if v.size == 1:
            return np.full((k, n), float(v.reshape(-1)[0]))
        if v.size == n:  # per channel: [n] or [1, n]
            return np.broadcast_to(v.reshape(1, n), (k, n))
        g = int(antiquant_group_size)
        if g <= 0 or v.ndim != 2 or v.shape != (-(-k // g), n):
            raise ValueError("antiquant parameter of shape %s fits no mode (k=%d, n=%d, group=%d)" % (v.shape, k, n, g))
        return np.repeat(v, g, axis=0)[:k]

    scale = expand(antiquant_scale)
    offset = expand(antiquant_offset) if antiquant_offset is not None and antiquant_offset.get("value") is not None else 0.0
    out = a @ ((w + offset) * scale)
    if bias is not None and bias.get("value") is not None:
        out = out + np.asarray(bias["value"], dtype=np.float64).reshape(1, -1)
    return [out]
