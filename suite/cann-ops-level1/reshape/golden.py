"""Golden for Reshape (cann-ops src/math/reshape).

Documented semantics: y is a copy of x's data (row-major order unchanged) under the target
shape held in the values of the 1-D tensor "shape". The attributes axis and num_axes name the
start dimension and the number of x's dimensions that the target replaces (num_axes = -1:
through the last dimension; a negative axis counts from the end, -1 meaning after the last
dimension); the defaults 0 and -1 make "shape" the whole output shape. One target entry may be
-1, inferred from the element count. The docs do not say what a 0 entry means (copy the input
dimension, or an empty dimension?), so a 0 entry is rejected rather than guessed.

The golden derives the output shape and checks it against the case's y shape, so a manifest
whose y shape disagrees with its "shape" values fails loudly.
"""
import numpy as np


def _target_shape(in_shape, spec, axis, num_axes):
    rank = len(in_shape)
    start = axis if axis >= 0 else rank + axis + 1
    if not 0 <= start <= rank:
        raise ValueError("axis %d is outside a rank-%d input" % (axis, rank))
    end = rank if num_axes == -1 else start + num_axes
    if num_axes < -1 or end > rank:
        raise ValueError("num_axes %d from axis %d does not fit a rank-%d input" % (num_axes, axis, rank))
    if any(d == 0 for d in spec):
        raise ValueError("a 0 entry in 'shape' has no documented meaning")
    if sum(1 for d in spec if d == -1) > 1 or any(d < -1 for d in spec):
        raise ValueError("'shape' may hold at most one -1 and no other negative entry")
    target = list(in_shape[:start]) + list(spec) + list(in_shape[end:])
    total = int(np.prod(in_shape, dtype=np.int64))
    if -1 in target:
        known = int(np.prod([d for d in target if d != -1], dtype=np.int64))
        if known == 0 or total % known:
            raise ValueError("cannot infer the -1 dimension: %d elements, %d known" % (total, known))
        target[target.index(-1)] = total // known
    if int(np.prod(target, dtype=np.int64)) != total:
        raise ValueError("target shape %s does not hold the %d elements of %s" % (target, total, list(in_shape)))
    return target


def reshape_golden(x, shape, y, axis=0, num_axes=-1, **_attrs):
    data = x["value"]
    spec = [int(v) for v in np.asarray(shape["value"]).reshape(-1)]
    target = _target_shape(list(data.shape), spec, int(axis), int(num_axes))
    if list(y["shape"]) != target:
        raise ValueError("the case gives y the shape %s, but 'shape' %s makes it %s" % (list(y["shape"]), spec, target))
    return data.reshape(target).copy()
