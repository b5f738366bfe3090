"""Golden for Lerp (cann-ops src/math/lerp).

Documented semantics (docs/Lerp.md): y = start + weight * (end - start), elementwise; start, end,
weight and y share one dtype and one shape (the OpDef's InferShape copies start's shape, and the
docs name no broadcasting). Computed here in float64 from the inputs as given; the runner rounds
the result to y's dtype. The docs give this one formula for every weight (torch.lerp switches to
end - (end - start) * (1 - weight) for weight >= 0.5 on some backends; the docs do not), so the
golden follows the docs.
"""
import numpy as np


def lerp_golden(start, end, weight, y=None, **_attrs):
    s = np.asarray(start["value"], dtype=np.float64)
    e = np.asarray(end["value"], dtype=np.float64)
    w = np.asarray(weight["value"], dtype=np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        return s + w * (e - s)
