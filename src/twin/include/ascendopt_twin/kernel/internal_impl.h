// Lower-level entry points of CANN's kernel library that published kernels call directly (the
// *Impl functions the documented APIs are built on, PopStackBuffer): each is the documented API
// on raw UB/GM addresses, with the same checks and the same charges.
#pragma once

#include "ascendopt_twin/attrs.h"

#include "ascendopt_twin/kernel/copy.h"
#include "ascendopt_twin/kernel/pipe.h"
#include "ascendopt_twin/kernel/rearrange.h"
#include "ascendopt_twin/kernel/vec_math.h"

namespace ascendopt_twin::detail {

// A UB address as a tensor that reaches to the end of the UB (the hardware knows no more). An
// address outside the core's UB is an error: these entry points take raw pointers, and nothing
// else stands between them and the process's memory.
template <class T>
ASCENDOPT_TWIN_FN AscendC::LocalTensor<T> ub_tensor(T* p) {
    const auto* begin = ub_base();
    const auto* end = begin + ub_size();
    const auto* at = reinterpret_cast<const uint8_t*>(p);
    if (begin == nullptr || at < begin || at >= end)
        fail(ErrorKind::run_failed, "UB address", "a raw UB address that is not in the core's UB; pass LocalTensor::GetPhyAddr() values");
    const uint32_t n = uint32_t((end - at) / sizeof(T));
    return AscendC::LocalTensor<T>(p, n, n);
}

template <class T>
ASCENDOPT_TWIN_FN AscendC::GlobalTensor<T> gm_tensor(T* p) {
    AscendC::GlobalTensor<T> g;
    g.SetGlobalBuffer(p);
    return g;
}

}  // namespace ascendopt_twin::detail

namespace AscendC {

using TEventID = int8_t;

// The UB that no InitBuffer has handed out, from the current TPipe's last allocation to the UB's
// end, as one tensor (the library's scratch "stack").
template <class T, TPosition pos>
ASCENDOPT_TWIN_FN bool PopStackBuffer(LocalTensor<T>& t) {
    TPipe* pipe = GetTPipePtr();
    const uint32_t used = pipe ? (pipe->used_bytes() + 31u) / 32u * 32u : 0;
    if (used >= ascendopt_twin::ub_size()) return false;
    const uint32_t n = (ascendopt_twin::ub_size() - used) / sizeof(T);
    t = LocalTensor<T>(reinterpret_cast<T*>(ascendopt_twin::ub_base() + used), n, n);
    return true;
}

template <class T>
ASCENDOPT_TWIN_FN void DuplicateImpl(__ubuf__ T* dst, const ascendopt_twin::detail::same_t<T>& value, const int32_t count) {
    Duplicate(ascendopt_twin::detail::ub_tensor(dst), value, count);
}

// TransDataTo5HD on the 16 destination and 16 source addresses as pointers: the documented
// address-list form.
template <class T>
ASCENDOPT_TWIN_FN void TransDataTo5HDImpl(__ubuf__ T* const (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                                          __ubuf__ T* const (&srcList)[NCHW_CONV_ADDR_LIST_SIZE], const TransDataTo5HDParams& p) {
    uint64_t dst[NCHW_CONV_ADDR_LIST_SIZE];
    uint64_t src[NCHW_CONV_ADDR_LIST_SIZE];
    for (int i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i) {
        dst[i] = reinterpret_cast<uint64_t>(dstList[i]);
        src[i] = reinterpret_cast<uint64_t>(srcList[i]);
    }
    TransDataTo5HD<T>(dst, src, p);
}

template <class T>
ASCENDOPT_TWIN_FN void DataCopyGM2UBImpl(__ubuf__ T* dst, __gm__ T* src, const DataCopyParams& p) {
    DataCopy(ascendopt_twin::detail::ub_tensor(dst), ascendopt_twin::detail::gm_tensor(src), p);
}
template <class T>
ASCENDOPT_TWIN_FN void DataCopyUB2GMImpl(__gm__ T* dst, __ubuf__ T* src, const DataCopyParams& p) {
    DataCopy(ascendopt_twin::detail::gm_tensor(dst), ascendopt_twin::detail::ub_tensor(src), p);
}
// The padding value is converted to T, whatever the parameters' own element type.
template <class T, class U>
ASCENDOPT_TWIN_FN void DataCopyPadGm2UBImpl(__ubuf__ T* dst, __gm__ T* src, const DataCopyExtParams& p, const DataCopyPadExtParams<U>& pad) {
    DataCopyPad(ascendopt_twin::detail::ub_tensor(dst), ascendopt_twin::detail::gm_tensor(src), p,
                DataCopyPadExtParams<T>(pad.isPad, pad.leftPadding, pad.rightPadding, static_cast<T>(pad.paddingValue)));
}
template <class T>
ASCENDOPT_TWIN_FN void DataCopyPadUB2GMImpl(__gm__ T* dst, __ubuf__ T* src, const DataCopyExtParams& p) {
    DataCopyPad(ascendopt_twin::detail::gm_tensor(dst), ascendopt_twin::detail::ub_tensor(src), p);
}

// An internal reduction helper of CANN's softmax implementation that kernels name in a
// using-declaration (weight_quant_batch_matmul_v2) but do not call: not modelled, a run error
// if called.
template <class... Args>
ASCENDOPT_TWIN_FN void ReduceLastND(Args&&...) {
    ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, "ReduceLastND", "an internal helper of CANN's softmax, not modelled by the twin");
}

}  // namespace AscendC
