"""Golden for DequantSwigluQuant (cann-ops src/activation/dequant_swiglu_quant).

Documented semantics (docs/aclnnDequantSwigluQuant.md): out = Quant(Swiglu(Dequant(x))) over x
[..., 2H], with A the first and B the second half of the last dimension.
- Dequant: for int32 x (a matmul's accumulator) d = (x + bias) * weight_scale * activation_scale for
  an int32 bias (the matmul's bias in the accumulator's domain), d = x * weight_scale *
  activation_scale + bias for a float bias; a missing activation_scale or bias is left out. 16-bit x
  is used as it is (the scales are the int32 path's: weight_scale is the weight's dequant scale).
- Swiglu: activate_left = true: swish(A) * B; false (the default) activates the right half:
  A * swish(B); swish(v) = v / (1 + exp(-v)).
- Quant, static: y = round(s / quant_scale + quant_offset) (quant_scale of one value or H values,
  quant_offset alike; without quant_scale y = round(s)). Static quantization has no per-row scale:
  the docs define none and the static kernels never store one, so the golden returns None for
  scale there (unwritten by contract: neither compared nor required; see the manifest).
  dynamic: t = s * quant_scale (a smoothing scale, one value or H; none: t = s), per row
  scale = max|t| / 127 and y = round(t / scale).
- round() halves to even; y saturates to int8. Computed in float64.
Outputs in OpDef order: y, scale.
"""
import numpy as np


def _v(t):
    return None if t is None or t.get("value") is None else np.asarray(t["value"])


def dequant_swiglu_quant_golden(x, y=None, scale=None, weight_scale=None, activation_scale=None, bias=None,
                                quant_scale=None, quant_offset=None, group_index=None, activate_left=False,
                                quant_mode="static", **_attrs):
    xv = _v(x)
    rows_shape = xv.shape[:-1]
    two_h = xv.shape[-1]
    h = two_h // 2
    xr = xv.reshape(-1, two_h)
    is_int = np.issubdtype(xv.dtype, np.integer)
    d = xr.astype(np.float64)
    if is_int:
        b = _v(bias)
        if b is not None and np.issubdtype(b.dtype, np.integer):
            d = (xr.astype(np.int64) + b.reshape(1, two_h).astype(np.int64)).astype(np.float64)
        ws = _v(weight_scale)
        if ws is not None:
            d = d * ws.reshape(1, two_h).astype(np.float64)
        a = _v(activation_scale)
        if a is not None:
            d = d * a.reshape(-1, 1).astype(np.float64)
        if b is not None and not np.issubdtype(b.dtype, np.integer):
            d = d + b.reshape(1, two_h).astype(np.float64)
    left, right = d[:, :h], d[:, h:]
    if activate_left:
        s = left / (1.0 + np.exp(-left)) * right
    else:
        s = left * (right / (1.0 + np.exp(-right)))
    qs = _v(quant_scale)
    qs = None if qs is None else qs.astype(np.float64).reshape(1, -1)
    mode = str(quant_mode).lower()
    if mode == "static":
        t = s
        if qs is not None:
            qo = _v(quant_offset)
            t = s / qs + (0.0 if qo is None else qo.astype(np.float64).reshape(1, -1))
        q = np.rint(t)
        sc = None
    else:
        t = s if qs is None else s * qs
        sc = np.abs(t).max(axis=1) / 127.0
        q = np.rint(t / sc[:, None])
    q = np.clip(q, -128, 127)
    return [q.reshape(rows_shape + (h,)), None if sc is None else sc.reshape(rows_shape)]
