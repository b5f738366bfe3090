"""Golden for SelectReduceMaxDSubExpReduceSumDRealDiv (cann-ops
src/math/select_reduce_max_d_sub_exp_reduce_sum_d_real_div).

Documented semantics (docs/SelectReduceMaxDSubExpReduceSumDRealDiv.md, "实现原理" steps 1-8):
    add_res = input1 * sel + input2 * (not sel)     (a selection: input1 where sel, else input2)
    output  = exp(add_res - max(add_res, axis=-1)) / sum(exp(add_res - max), axis=-1)
i.e. a softmax over the last axis of the selected values. The formula list also names a
sigmoid "output_1" of sub_res, but the operator has one output (`ouput`, so spelled in the
OpDef) and the implementation steps end with the division, so the golden returns that.
The selection is taken as a select (the docs' products with a boolean), so an infinite
unselected value does not turn into NaN. Computed in float64.
"""
import numpy as np


def select_softmax_golden(sel, input1, input2, ouput=None, **_attrs):
    s = np.asarray(sel["value"]).astype(bool)
    a = np.asarray(input1["value"], dtype=np.float64)
    b = np.asarray(input2["value"], dtype=np.float64)
    s, a, b = np.broadcast_arrays(s, a, b)
    x = np.where(s, a, b)
    m = np.max(x, axis=-1, keepdims=True)
    e = np.exp(x - m)
    return e / np.sum(e, axis=-1, keepdims=True)
