"""Golden for DynamicQuantUpdateScatter (cann-ops src/index/dynamic_quant_update_scatter).

The README describes the operator as DynamicQuant followed by two Scatter updates (no torch or
TensorFlow equivalent); the pieces follow the CANN / torch_npu operators it names:
- DynamicQuant (torch_npu.npu_dynamic_quant, symmetric int8 per row): each row r of updates
  (its last dimension), multiplied elementwise by smooth_scales when given, gets
      scale_r = max(|row|) / 127,   q = round(row / scale_r)  (round half to even)
  so the largest magnitude of a row quantizes to +-127.
- Scatter with reduce "update" on axis -2 (torch_npu.scatter_update's KV-cache update): updates
  [B, N, s, D] are written into var [Bv, N, S, D] at rows p..p+s-1 of axis -2, where for 1-D
  indices [B] batch b goes to var batch b at p = indices[b], and for 2-D indices [B, 2] batch b
  goes to var batch indices[b, 0] at p = indices[b, 1]. var_scale (var without its last
  dimension) receives scale_r at the same positions. Everything else keeps its value.
The quantization is computed in float64 from the inputs as stored.
"""
import numpy as np


def dynamic_quant_update_scatter_golden(var, var_scale, indices, updates, smooth_scales=None,
                                        reduce="update", axis=-2, **_attrs):
    if int(axis) not in (-2, 2) or reduce not in ("update", "none", ""):
        raise ValueError("golden covers axis -2 with reduce 'update' only")
    v = np.array(var["value"], dtype=np.float64)
    vs = np.array(var_scale["value"], dtype=np.float64).reshape(v.shape[:-1])
    u = np.asarray(updates["value"], dtype=np.float64)
    if smooth_scales is not None and smooth_scales.get("value") is not None:
        u = u * np.asarray(smooth_scales["value"], dtype=np.float64).reshape(-1)
    amax = np.max(np.abs(u), axis=-1, keepdims=True)
    scale = amax / 127.0
    q = np.clip(np.rint(u / scale), -128, 127)
    idx = np.asarray(indices["value"]).astype(np.int64)
    s = u.shape[2]
    for b in range(u.shape[0]):
        if idx.ndim == 1:
            vb, p = b, int(idx[b])
        else:
            vb, p = int(idx[b, 0]), int(idx[b, 1])
        v[vb, :, p:p + s, :] = q[b]
        vs[vb, :, p:p + s] = scale[b, :, :, 0]
    return [v, vs.reshape(var_scale["shape"])]
