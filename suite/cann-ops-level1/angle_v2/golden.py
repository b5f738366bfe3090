"""Golden for AngleV2 (cann-ops src/math/angle_v2): the argument (angle, in radians) of x.

Documented semantics (docs/AngleV2.md):
- complex x: atan(imag/real) for real > 0; pi/2 for real = 0, imag > 0; 0 for real = imag = 0;
  -pi/2 for real = 0, imag < 0; pi + atan(imag/real) for real < 0, imag >= 0;
  -pi + atan(imag/real) for real < 0, imag < 0; and the listed limits for infinite parts
  (+-pi, 0, +-pi/4, +-3pi/4, +-pi/2). That is atan2(imag, real) with a signed zero counted as
  +0 (the formula compares with >= 0, so (-1, -0.0) gives pi and (-0.0, 0) gives 0).
- real x (float16, float32, integers): 0 for x >= 0 (-0.0 included), pi for x < 0.
- bool and uint8 are never negative: 0.
The docs do not mention NaN; an angle of NaN (or of a complex with a NaN part) is NaN here, as
in every atan2. Output dtype: float16 for float16 x, float32 otherwise (the OpDef columns).
"""
import numpy as np


def angle_v2_golden(x, y=None, **_):
    v = x["value"]
    dt = x["dtype"]
    if dt == "complex64":
        # Adding +0.0 turns -0.0 into +0.0: the documented formula does not look at zero signs.
        re = v.real.astype(np.float64) + 0.0
        im = v.imag.astype(np.float64) + 0.0
        return np.arctan2(im, re)
    if dt in ("bool", "uint8"):
        return np.zeros(v.shape, dtype=np.float64)
    f = v.astype(np.float64)
    out = np.where(f < 0, np.pi, 0.0)
    out[np.isnan(f)] = np.nan
    return out
