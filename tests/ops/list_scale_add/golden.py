"""Golden for ListScaleAdd (op_host/list_scale_add.cpp): y[i] = x[i] * alpha + bias[0]."""
import numpy as np


def list_scale_add_golden(x, y, bias=None, alpha=1.0, **_attrs):
    b = 0.0 if bias is None else float(np.asarray(bias["value"], dtype=np.float64).reshape(-1)[0])
    return [np.asarray(t["value"], dtype=np.float64) * alpha + b for t in x]
