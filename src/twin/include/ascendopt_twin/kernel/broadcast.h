// BroadCast (Broadcast in the current documentation), the advanced API: a tensor of srcShape with extent 1 on `axis` repeated along that
// axis to dstShape (dim 1: [1] -> [n]; dim 2: [1, k] -> [m, k] on axis 0, [m, 1] -> [m, k] on
// axis 1), row-major and contiguous. The sharedTmpBuffer form accepts any buffer inside the UB:
// the twin needs no temporary space and no host helper publishes a minimum for it.
#pragma once

#include "ascendopt_twin/attrs.h"

#include <string>

#include "ascendopt_twin/kernel/vec.h"

namespace ascendopt_twin::detail {

template <class T, int32_t dim, int32_t axis>
ASCENDOPT_TWIN_FN void broadcast(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, const uint32_t* dstShape,
                                 const uint32_t* srcShape, const char* api = "BroadCast") {
    static_assert(dim == 1 || dim == 2, "BroadCast / Broadcast support dim 1 and 2");
    static_assert(axis >= 0 && axis < dim, "BroadCast / Broadcast: axis must be 0 .. dim - 1");
    if (srcShape[axis] != 1)
        fail(ErrorKind::run_failed, api, "srcShape[" + str(uint64_t(axis)) + "] is " + str(srcShape[axis]) + "; the broadcast axis must have extent 1");
    for (int32_t d = 0; d < dim; ++d)
        if (d != axis && srcShape[d] != dstShape[d])
            fail(ErrorKind::run_failed, api,
                 "srcShape[" + str(uint64_t(d)) + "] " + str(srcShape[d]) + " differs from dstShape[" + str(uint64_t(d)) + "] " + str(dstShape[d]));
    const uint64_t rows = dim == 2 ? dstShape[0] : 1, cols = dim == 2 ? dstShape[1] : dstShape[0];
    require_count(rows * cols, dst, api, "destination");
    require_count(uint64_t(srcShape[0]) * (dim == 2 ? srcShape[1] : 1), src, api, "source");
    for (uint64_t i = 0; i < rows; ++i)
        for (uint64_t j = 0; j < cols; ++j) {
            const uint64_t from = dim == 1 ? 0 : (axis == 0 ? j : i);
            dst.data()[i * cols + j] = src.data()[from];
        }
    record_vector<T>(api, rows * cols, dst.data(), src.data());
}

}  // namespace ascendopt_twin::detail

namespace AscendC {

template <class T, int32_t dim, int32_t axis, bool isReuseSource = false>
ASCENDOPT_TWIN_FN void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
                                 const uint32_t srcShape[dim], const LocalTensor<uint8_t>& sharedTmpBuffer) {
    ascendopt_twin::check_ub_access("BroadCast", "sharedTmpBuffer", sharedTmpBuffer.data(), sharedTmpBuffer.GetSize(),
                                    uint64_t(sharedTmpBuffer.extent()));
    ascendopt_twin::detail::broadcast<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape);
}
template <class T, int32_t dim, int32_t axis, bool isReuseSource = false>
ASCENDOPT_TWIN_FN void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
                                 const uint32_t srcShape[dim]) {
    ascendopt_twin::detail::broadcast<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape);
}

// Broadcast: the documentation's current name of BroadCast, with the same template parameters
// (T, dim 1 or 2, axis, isReuseSource), shapes and both temporary-space forms. (The dynamic-shape
// form is documented for the Ascend 950 only.)
template <class T, int32_t dim, int32_t axis, bool isReuseSource = false>
ASCENDOPT_TWIN_FN void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
                                 const uint32_t srcShape[dim], const LocalTensor<uint8_t>& sharedTmpBuffer) {
    ascendopt_twin::check_ub_access("Broadcast", "sharedTmpBuffer", sharedTmpBuffer.data(), sharedTmpBuffer.GetSize(),
                                    uint64_t(sharedTmpBuffer.extent()));
    ascendopt_twin::detail::broadcast<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape, "Broadcast");
}
template <class T, int32_t dim, int32_t axis, bool isReuseSource = false>
ASCENDOPT_TWIN_FN void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
                                 const uint32_t srcShape[dim]) {
    ascendopt_twin::detail::broadcast<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape, "Broadcast");
}

}  // namespace AscendC
