"""Golden for InplaceFusedMatmulSoftmaxGrad (cann-ops src/math/inplace_fused_matmul_softmax_grad).

Documented semantics (docs/InplaceFusedMatmulSoftmaxGrad.md): the backward of softmax (as torch's
softmax backward) with the incoming gradient formed by a matrix product, written in place into
softmaxOutput. softmaxOutput y is [m, n], gradOutput [m, k] and values [n, k] (docs' shape
column), so the gradient reaching the softmax is dP = gradOutput @ values^T ([m, n]), and
    softmaxOutput <- y * (dP - sum_j(dP * y, last axis))
Leading dimensions in front of [m, n] are batches (op_host reads them as b). Computed in float64
from the input values; the comparison rounds the result to softmaxOutput's dtype.
"""
import numpy as np


def inplace_fused_matmul_softmax_grad_golden(softmaxOutput, gradOutput, values, **_attrs):
    y = np.asarray(softmaxOutput["value"], dtype=np.float64)
    g = np.asarray(gradOutput["value"], dtype=np.float64)
    v = np.asarray(values["value"], dtype=np.float64)
    dp = np.matmul(g, np.swapaxes(v, -1, -2))
    if dp.shape != y.shape:
        raise ValueError("gradOutput @ values^T has shape %s, softmaxOutput %s" % (dp.shape, y.shape))
    return [y * (dp - np.sum(dp * y, axis=-1, keepdims=True))]
