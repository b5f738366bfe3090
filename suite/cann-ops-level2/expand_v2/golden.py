"""Golden for ExpandV2 (cann-ops src/math/expand_v2).

Documented semantics (docs/ExpandV2.md, "功能描述": x is broadcast to the tensor of the given
shape, e.g. x = [3], shape = [2, 2] gives [[3, 3], [3, 3]]; x and y are int64). The docs do
not spell out the broadcasting rule; the golden uses the one of the frameworks the operator
serves (numpy broadcast_to, torch.Tensor.expand): dimensions aligned from the right, a
dimension of size 1 repeated to the target size, missing leading dimensions added. y has the
`shape` attribute's dimensions (InferShape in op_host/expand_v2.cpp). Exact: values are copied.
"""
import numpy as np


def expand_v2_golden(x, y=None, shape=None, **_attrs):
    v = np.asarray(x["value"])
    return np.broadcast_to(v, tuple(int(d) for d in shape)).copy()
