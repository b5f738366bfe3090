// Reductions of the advanced API the cann-ops tree calls: Sum and Mean over the last axis of
// an [outter, inner] tensor (n valid elements per row, inner = n padded to 32 bytes), and the
// accumulator read-back of ReduceSum: GetAccVal / GetReduceRepeatSumSpr.
//
// Sums are exact in double and rounded once per output (the documentation describes a pairwise
// tree inside each repeat; the twin does not reproduce its intermediate roundings, as the basic
// reductions of vec_reduce.h do not). Mean divides the exact sum by n before the one rounding.
#pragma once

#include "ascendopt_twin/attrs.h"

#include "ascendopt_twin/kernel/adv_api.h"
#include "ascendopt_twin/kernel/vec_reduce.h"

namespace AscendC {

struct SumParams {
    uint32_t outter = 1;
    uint32_t inner = 0;
    uint32_t n = 0;
};

struct MeanParams {
    uint32_t outter = 1;
    uint32_t inner = 0;
    uint32_t n = 0;
};

// The accumulator of the last reduction (ReduceSum's result register, ACC_VAL) as the device
// returns it: the bits of the float result in the low 32 bits. The twin keeps one register for
// the last ReduceSum/ReduceMax/ReduceMin (vec_reduce.h, reduce_state), which is what kernels
// read right after their ReduceSum.
ASCENDOPT_TWIN_FN inline int64_t GetAccVal() {
    const float v = static_cast<float>(ascendopt_twin::reduce_state().value);
    return static_cast<int64_t>(ascendopt_twin::float_bits(v));
}
template <typename T>
ASCENDOPT_TWIN_FN T GetAccVal() {
    return ascendopt_twin::adv::round_once<T>(ascendopt_twin::reduce_state().value);
}
template <typename T>
ASCENDOPT_TWIN_FN T GetReduceRepeatSumSpr() {
    return ascendopt_twin::adv::round_once<T>(ascendopt_twin::reduce_state().value);
}

}  // namespace AscendC

namespace ascendopt_twin::reduce {

template <class T>
ASCENDOPT_TWIN_FN void check_rows(const char* api, uint32_t outter, uint32_t inner, uint32_t n) {
    static_assert(std::is_same_v<T, Half> || std::is_same_v<T, float>, "Sum and Mean take half or float");
    if (outter == 0 || n == 0 || n > inner)
        adv::fail_api(api, "outter " + adv::num(outter) + ", inner " + adv::num(inner) + ", n " + adv::num(n) + ": need outter >= 1 and 1 <= n <= inner");
    if (uint64_t(inner) * sizeof(T) % 32 != 0)
        adv::fail_api(api, "inner " + adv::num(inner) + " elements of " + adv::num(sizeof(T)) + " bytes are not a whole number of 32-byte blocks");
}

// Row sums of the first n of every `inner` elements, divided by `divisor`, rounded once.
template <class T>
ASCENDOPT_TWIN_FN void row_sums(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, uint32_t outter,
                                uint32_t inner, uint32_t n, double divisor) {
    adv::require(api, "source", src, uint64_t(outter) * inner);
    adv::require(api, "destination", dst, outter);
    for (uint32_t i = 0; i < outter; ++i) {
        double s = 0;
        for (uint32_t j = 0; j < n; ++j) s += adv::load(src.data()[uint64_t(i) * inner + j]);
        dst.data()[i] = adv::round_once<T>(s / divisor);
    }
}

// Estimate: per row one WholeReduceSum over its repeats, and one more to fold several repeats.
ASCENDOPT_TWIN_FN inline void charge_rows(uint32_t outter, uint32_t n, uint32_t elem, const void* dst, const void* src) {
    const uint32_t repeats = (n * elem + 255) / 256;
    for (uint32_t i = 0; i < outter; ++i) {
        adv::charge("WholeReduceSum", uint64_t(n) * elem, dst, src);
        if (repeats > 1) adv::charge("WholeReduceSum", uint64_t(repeats) * elem, dst, dst);
    }
}

}  // namespace ascendopt_twin::reduce

namespace AscendC {

template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
ASCENDOPT_TWIN_FN void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                           const SumParams& sumParams) {
    using namespace ascendopt_twin;
    reduce::check_rows<T>("Sum", sumParams.outter, sumParams.inner, sumParams.n);
    const uint32_t per_repeat = 256 / sizeof(T), per_blk = 32 / sizeof(T);
    const uint32_t repeats = (sumParams.n + per_repeat - 1) / per_repeat;
    adv::require_tmp("Sum", sharedTmpBuffer, uint64_t((repeats + per_blk - 1) / per_blk * per_blk) * sizeof(T));  // GetSumMaxMinTmpSize
    reduce::row_sums("Sum", dstTensor, srcTensor, sumParams.outter, sumParams.inner, sumParams.n, 1.0);
    reduce::charge_rows(sumParams.outter, sumParams.n, sizeof(T), dstTensor.data(), srcTensor.data());
}
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
ASCENDOPT_TWIN_FN void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const SumParams& sumParams) {
    Sum<T, reduceDim, isReuseSource, isBasicBlock>(dstTensor, srcTensor, ascendopt_twin::adv::framework_tmp(), sumParams);
}

template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false, int32_t reduceDim = -1>
ASCENDOPT_TWIN_FN void Mean(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                            const MeanParams& meanParams) {
    using namespace ascendopt_twin;
    static_assert(sizeof(accType) >= sizeof(T), "Mean: accType may not be narrower than T");
    reduce::check_rows<T>("Mean", meanParams.outter, meanParams.inner, meanParams.n);
    // GetMeanMaxMinTmpSize
    const uint32_t acc = sizeof(accType);
    const uint32_t repeats = (meanParams.n + 256 / acc - 1) / (256 / acc);
    uint64_t need = (repeats + 31) / 32 * 32;
    if (sizeof(T) == 2 && acc == 4) need += uint64_t(meanParams.inner) * 4;
    adv::require_tmp("Mean", sharedTmpBuffer, need);
    reduce::row_sums("Mean", dstTensor, srcTensor, meanParams.outter, meanParams.inner, meanParams.n, double(meanParams.n));
    const bool widen = sizeof(accType) != sizeof(T);
    if (widen) adv::charge("Cast", uint64_t(meanParams.outter) * meanParams.inner * 4, sharedTmpBuffer.data(), srcTensor.data());
    reduce::charge_rows(meanParams.outter, meanParams.n, acc, dstTensor.data(), srcTensor.data());
    adv::charge("Muls", uint64_t(meanParams.outter) * acc, dstTensor.data(), dstTensor.data());
    if (widen) adv::charge("Cast", uint64_t(meanParams.outter) * 4, dstTensor.data(), dstTensor.data());
}
template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false, int32_t reduceDim = -1>
ASCENDOPT_TWIN_FN void Mean(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const MeanParams& meanParams) {
    Mean<T, accType, isReuseSource, isBasicBlock, reduceDim>(dstTensor, srcTensor, ascendopt_twin::adv::framework_tmp(), meanParams);
}

}  // namespace AscendC
