"""Golden for MaskedSelectV3 (cann-ops src/index/masked_select_v3).

Documented semantics (docs/MaskedSelectV3.md, after torch.masked_select): the elements of x
where mask is true, in row-major order, as a 1-D tensor. x and mask have one shape here (the
aclnn layer broadcasts them before the operator). The result has as many elements as mask has
true values, fewer than the y the caller allocates (x's element count, docs): the operator
reports the count through its output-shape buffer (y is OutputShapeDependOnCompute in the
OpDef), and the golden returns only the selected elements. The copy is exact.
"""
import numpy as np


def masked_select_v3_golden(x, mask, y=None, **_attrs):
    xv = np.asarray(x["value"])
    mv = np.asarray(mask["value"]).astype(bool)
    if xv.shape != mv.shape:
        raise ValueError("x %s and mask %s differ in shape (the aclnn layer broadcasts them)" % (xv.shape, mv.shape))
    return xv.reshape(-1)[mv.reshape(-1)]
