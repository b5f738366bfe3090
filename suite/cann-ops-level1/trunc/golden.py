"""Golden for Trunc (cann-ops src/math/trunc).

Documented semantics: each element's truncated integer value, i.e. rounding toward zero
(trunc(-2.7) = -2, trunc(-0.5) = -0.0), for any float magnitude: floats at or beyond 2^mantissa
are integers already and come back unchanged, +-inf and NaN too (the C/torch trunc convention).
Integer inputs (int8, int32, uint8) are returned unchanged.
"""
import numpy as np


def trunc_golden(input_x, output_y, **_attrs):
    data = input_x["value"]
    if input_x["dtype"] in ("int8", "int32", "uint8"):
        return data.copy()
    return np.trunc(data.astype(np.float64))
