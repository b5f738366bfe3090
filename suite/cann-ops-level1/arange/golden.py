"""Golden for Arange (cann-ops src/math/arange): out[i] = start + i * step.

Docs: values from start towards end with spacing step, out[i+1] = out[i] + step; start < end
for step > 0, start > end for step < 0, step != 0. The length is the output's shape (the kernel
fills exactly out's elements). The docs give the length as (end - start) / step + 1, which reads
as inclusive of end, while torch.arange excludes it (ceil((end - start) / step)); every case here
picks an end where (end - start) / step is not an integer, so both readings give the same
length, and the golden checks that out's length is that value.
Floats: start + i * step computed in float64 from the stored (dtype-rounded) inputs, rounded once
to the output dtype. Integers: exact integer arithmetic.
"""
import math

import numpy as np


def _scalar(t):
    return np.asarray(t["value"]).reshape(-1)[0]


def arange_golden(start, end, step, out, **_):
    n = int(np.prod(out["shape"], dtype=np.int64))
    s0, e0, st = _scalar(start), _scalar(end), _scalar(step)
    span = (float(e0) - float(s0)) / float(st)
    if st == 0 or span <= 0 or n != math.ceil(span) or n != math.floor(span) + 1:
        raise ValueError("out has %d elements; start=%r end=%r step=%r give (end-start)/step=%r, "
                         "which must be positive and not an integer, with out's length its ceiling"
                         % (n, s0, e0, st, span))
    i = np.arange(n, dtype=np.int64)
    if out["dtype"] in ("int32", "int64"):
        return (int(s0) + int(st) * i).astype(out["dtype"])
    return float(s0) + float(st) * i.astype(np.float64)
