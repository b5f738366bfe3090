// The SoftMax family of the advanced API: SoftMax, SimpleSoftMax, SoftmaxFlashV2, SoftmaxGrad,
// SoftmaxGradFront, and the kernel-side tiling function SoftMaxFlashV2TilingFunc.
//
// The source is a [m, k] row-major tensor (k, the last axis, 32-byte aligned). Every row is
// computed exactly: the row maximum and the sums over the first oriSrcK columns (the original
// last axis; k when oriSrcK is 0 or larger), exp and quotients in double, each output element
// rounded once. The padding columns oriSrcK..k-1 take part in the elementwise steps (as the
// documentation says of padded data) but not in the reductions.
//
// Shape in effect: softmaxShapeInfo {srcM, srcK} when both are non-zero, else the tiling's
// {srcM, srcK}. The columns the reductions cover: config.oriSrcK, else softmaxShapeInfo's
// oriSrcK, else the last original dimension of the ShapeInfo the kernel attached to the source
// (LocalTensor::SetShapeInfo; flash attention marks its aligned score rows that way), else k.
// With config.isCheckTiling
// (the default) a tiling for another shape is recomputed from the temporary space, as the API
// does; without it the tiling's own srcM/srcK/splitM are used as they are.
//
// Temporary space: sharedTmpBuffer, or, in the overloads without it, the UB past the TPipe's
// last InitBuffer (adv_api.h, framework_tmp). The split the API runs with (tiling.splitM rows,
// or the recomputed one) times the per-row size of adv_softmax_tiling.h is what it works in; a
// buffer that holds no row at all is an error.
//
// Max and sum outputs ("32-byte last axis"): row r's value fills the 32 / sizeof(T) elements
// at r * (32 / sizeof(T)); with SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC they are [m, 1].
// NZ data format (isDataFormatNZ) is not supported by the twin: a run_failed error.
#pragma once

#include "ascendopt_twin/attrs.h"

#include "ascendopt_twin/kernel/adv_api.h"
#include "ascendopt_twin/kernel/adv_softmax_tiling.h"

namespace ascendopt_twin::softmax {

using AscendC::LocalTensor;

struct RowShape {
    uint32_t m = 0;
    uint32_t k = 0;
    uint32_t reduce_k = 0;  // columns the reductions cover
};

// The shape the API computes on (see the header comment).
ASCENDOPT_TWIN_FN inline RowShape shape_in_effect(const char* api, const AscendC::SoftMaxShapeInfo& info, const SoftMaxTiling& tiling,
                                                  bool check_tiling, uint32_t config_ori_k, const AscendC::ShapeInfo& src_shape = {}) {
    RowShape s;
    if (check_tiling && info.srcM != 0 && info.srcK != 0) {
        s.m = info.srcM;
        s.k = info.srcK;
    } else {
        s.m = tiling.srcM;
        s.k = tiling.srcK;
    }
    if (s.m == 0 || s.k == 0)
        adv::fail_api(api, "no shape: softmaxShapeInfo is {" + adv::num(info.srcM) + ", " + adv::num(info.srcK) +
                               "} and the tiling has srcM " + adv::num(tiling.srcM) + ", srcK " + adv::num(tiling.srcK));
    const uint32_t attached_k = src_shape.originalShapeDim > 0 ? src_shape.originalShape[src_shape.originalShapeDim - 1] : 0;
    const uint32_t ori_k = config_ori_k != 0 ? config_ori_k : info.oriSrcK != 0 ? info.oriSrcK : attached_k;
    s.reduce_k = (ori_k != 0 && ori_k <= s.k) ? ori_k : s.k;
    return s;
}

// Rows per split the API runs with, and the check of its temporary buffer against them.
// `recompute` gives the tiling for the shape from the temporary bytes.
template <class Recompute>
ASCENDOPT_TWIN_FN uint32_t split_in_effect(const char* api, const RowShape& s, const SoftMaxTiling& tiling, bool check_tiling,
                                           const LocalTensor<uint8_t>& tmp, uint32_t row_floats, Recompute recompute) {
    const uint64_t tmp_bytes = uint64_t(tmp.GetSize());
    uint32_t split = tiling.splitM;
    if (check_tiling && (s.m != tiling.srcM || s.k != tiling.srcK)) {
        split = recompute(tmp_bytes).splitM;
        if (split == 0)
            adv::fail_api(api, "the temporary buffer of " + adv::num(tmp_bytes) + " bytes holds no row of " + adv::num(s.k) +
                                   " elements: one row needs " + adv::num(uint64_t(row_floats) * 4) +
                                   " bytes (the minimum the Get...MinTmpSize host function returns)");
    } else if (split == 0) {
        adv::fail_api(api, "the tiling's splitM is 0 (srcM " + adv::num(tiling.srcM) + ", srcK " + adv::num(tiling.srcK) +
                               "): was it computed with less temporary space than the minimum?");
    }
    if (split > s.m) split = s.m;
    adv::require_tmp(api, tmp, uint64_t(split) * row_floats * 4);
    return split;
}

// Charges `n` vector instructions per split: kinds[i] over bytes_per_row[i] bytes of each row.
ASCENDOPT_TWIN_FN inline void charge_splits(const char* const* kinds, const uint32_t* bytes_per_row, int n, uint32_t m, uint32_t split,
                                            const void* dst, const void* src) {
    for (uint32_t first = 0; first < m; first += split) {
        const uint32_t rows = m - first < split ? m - first : split;
        for (int i = 0; i < n; ++i) adv::charge(kinds[i], uint64_t(rows) * bytes_per_row[i], dst, src);
    }
}

// The estimate of SoftMax's instructions for one split of a float [rows, k]: reduce max,
// broadcast, subtract, exp, reduce sum, broadcast, divide (plus the casts of a 16-bit source).
ASCENDOPT_TWIN_FN inline void charge_softmax(uint32_t m, uint32_t k, uint32_t split, bool cast, bool divide, const void* dst, const void* src) {
    const char* kinds[9];
    uint32_t bytes[9];
    int n = 0;
    const uint32_t row = k * 4;
    if (cast) { kinds[n] = "Cast"; bytes[n++] = row; }
    kinds[n] = "WholeReduceMax"; bytes[n++] = row;
    kinds[n] = "Brcb"; bytes[n++] = 32;
    kinds[n] = "Sub"; bytes[n++] = row;
    kinds[n] = "Exp"; bytes[n++] = row;
    kinds[n] = "WholeReduceSum"; bytes[n++] = row;
    kinds[n] = "Brcb"; bytes[n++] = 32;
    if (divide) { kinds[n] = "Div"; bytes[n++] = row; }
    if (cast) { kinds[n] = "Cast"; bytes[n++] = row; }
    charge_splits(kinds, bytes, n, m, split, dst, src);
}

template <class T>
ASCENDOPT_TWIN_FN constexpr uint32_t blk() { return 32u / sizeof(T); }

// Stores row r's value `v` into a [m, 32-byte] (or [m, 1] when !brc) tensor.
template <class T>
ASCENDOPT_TWIN_FN void store_row_value(const LocalTensor<T>& t, uint32_t r, double v, bool brc) {
    const T x = adv::round_once<T>(v);
    if (!brc) {
        t.data()[r] = x;
        return;
    }
    for (uint32_t i = 0; i < blk<T>(); ++i) t.data()[r * blk<T>() + i] = x;
}
template <class T>
ASCENDOPT_TWIN_FN double row_value(const LocalTensor<T>& t, uint32_t r, bool brc) {
    return adv::load(t.data()[brc ? r * blk<T>() : r]);
}
template <class T>
ASCENDOPT_TWIN_FN void require_rows(const char* api, const char* which, const LocalTensor<T>& t, uint32_t m, bool brc) {
    adv::require(api, which, t, uint64_t(m) * (brc ? blk<T>() : 1u));
}

// Row maximum over the first n elements (NaN propagates).
template <class T>
ASCENDOPT_TWIN_FN double row_max(const T* x, uint32_t n) {
    double mx = adv::load(x[0]);
    for (uint32_t j = 1; j < n; ++j) mx = adv::max_nan(mx, adv::load(x[j]));
    return mx;
}

ASCENDOPT_TWIN_FN inline void require_nd(const char* api, bool nz) {
    if (nz) adv::fail_api(api, "the NZ data format (isDataFormatNZ = true) is not supported by the twin");
}

// SoftMax: dst = exp(x - max) / sum per row; max and sum written when the pointers are set.
template <class T1, class T2>
ASCENDOPT_TWIN_FN void softmax(const char* api, const LocalTensor<T1>& dst, const LocalTensor<T2>* sum, const LocalTensor<T2>* max,
                               const LocalTensor<T1>& src, const LocalTensor<uint8_t>& tmp, const SoftMaxTiling& tiling,
                               const AscendC::SoftMaxShapeInfo& info, const AscendC::SoftmaxConfig& config) {
    const RowShape s = shape_in_effect(api, info, tiling, config.isCheckTiling, config.oriSrcK, src.GetShapeInfo());
    const uint32_t type2 = sum ? uint32_t(sizeof(T2)) : uint32_t(sizeof(float));
    const uint32_t row = softmax_row(s.k, type2);
    const uint32_t split = split_in_effect(api, s, tiling, config.isCheckTiling, tmp, row,
                                           [&](uint64_t bytes) ASCENDOPT_TWIN_FN { return softmax_tiling(s.m, s.k, type2, bytes); });
    adv::require(api, "source", src, uint64_t(s.m) * s.k);
    adv::require(api, "destination", dst, uint64_t(s.m) * s.k);
    if (sum) require_rows(api, "sum", *sum, s.m, true);
    if (max) require_rows(api, "max", *max, s.m, true);
    for (uint32_t r = 0; r < s.m; ++r) {
        const T1* x = src.data() + uint64_t(r) * s.k;
        const double mx = row_max(x, s.reduce_k);
        double total = 0;
        for (uint32_t j = 0; j < s.reduce_k; ++j) total += math::exp(adv::load(x[j]) - mx);
        // Elementwise last: dst may be src.
        for (uint32_t j = 0; j < s.k; ++j)
            dst.data()[uint64_t(r) * s.k + j] = adv::round_once<T1>(math::exp(adv::load(x[j]) - mx) / total);
        if (sum) store_row_value(*sum, r, total, true);
        if (max) store_row_value(*max, r, mx, true);
    }
    charge_softmax(s.m, s.k, split, adv::is_16bit_float<T1>, true, dst.data(), src.data());
}

// SimpleSoftMax: dst = exp(x - inMax) / inSum, with max and sum given.
template <class T1, class T2>
ASCENDOPT_TWIN_FN void simple_softmax(const char* api, const LocalTensor<T1>& dst, const LocalTensor<T2>& in_sum, const LocalTensor<T2>& in_max,
                                      const LocalTensor<T1>& src, const LocalTensor<uint8_t>& tmp, const SoftMaxTiling& tiling,
                                      const AscendC::SoftMaxShapeInfo& info, const AscendC::SoftmaxConfig& config) {
    const RowShape s = shape_in_effect(api, info, tiling, config.isCheckTiling, config.oriSrcK, src.GetShapeInfo());
    const uint32_t row = softmax_row(s.k, sizeof(T2));
    const uint32_t split = split_in_effect(api, s, tiling, config.isCheckTiling, tmp, row,
                                           [&](uint64_t bytes) ASCENDOPT_TWIN_FN { return softmax_tiling(s.m, s.k, sizeof(T2), bytes); });
    adv::require(api, "source", src, uint64_t(s.m) * s.k);
    adv::require(api, "destination", dst, uint64_t(s.m) * s.k);
    require_rows(api, "inSum", in_sum, s.m, true);
    require_rows(api, "inMax", in_max, s.m, true);
    for (uint32_t r = 0; r < s.m; ++r) {
        const double mx = row_value(in_max, r, true), total = row_value(in_sum, r, true);
        for (uint32_t j = 0; j < s.k; ++j) {
            const uint64_t at = uint64_t(r) * s.k + j;
            dst.data()[at] = adv::round_once<T1>(math::exp(adv::load(src.data()[at]) - mx) / total);
        }
    }
    const char* kinds[] = {"Sub", "Exp", "Div"};
    const uint32_t bytes[] = {s.k * 4, s.k * 4, s.k * 4};
    charge_splits(kinds, bytes, 3, s.m, split, dst.data(), src.data());
}

// SoftmaxFlashV2 (FlashAttention-2): without update, dst = exp(x - max), sum = sum(dst);
// with update, max = max(inMax, rowmax(x)), dst = exp(x - max), expMax = exp(inMax - max),
// sum = expMax * inSum + sum(dst). `reduce_max_out`, when set, receives rowmax(x).
template <class T1, class T2, bool is_update>
ASCENDOPT_TWIN_FN void flash_v2(const char* api, const LocalTensor<T1>& dst, const LocalTensor<T2>* reduce_max_out,
                                const LocalTensor<T2>& sum, const LocalTensor<T2>& max, const LocalTensor<T1>& src,
                                const LocalTensor<T1>& exp_max, const LocalTensor<T2>& in_sum, const LocalTensor<T2>& in_max,
                                const LocalTensor<uint8_t>& tmp, const SoftMaxTiling& tiling, const AscendC::SoftMaxShapeInfo& info,
                                const AscendC::SoftmaxConfig& config, bool basic_block) {
    const bool brc = config.mode != AscendC::SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC;
    const RowShape s = shape_in_effect(api, info, tiling, config.isCheckTiling, config.oriSrcK, src.GetShapeInfo());
    const bool bb = flash_basic(basic_block, s.m, s.k);
    const uint32_t row = flash_row(s.k, sizeof(T1), sizeof(T2), bb);
    const uint32_t split = split_in_effect(api, s, tiling, config.isCheckTiling, tmp, row, [&](uint64_t bytes) ASCENDOPT_TWIN_FN {
        return flash_v2_tiling(s.m, s.k, sizeof(T1), sizeof(T2), bytes, basic_block, !brc);
    });
    adv::require(api, "source", src, uint64_t(s.m) * s.k);
    adv::require(api, "destination", dst, uint64_t(s.m) * s.k);
    require_rows(api, "expSum", sum, s.m, brc);
    require_rows(api, "max", max, s.m, brc);
    if (reduce_max_out) require_rows(api, "outReduceMax", *reduce_max_out, s.m, false);
    if (is_update) {
        require_rows(api, "inExpSum", in_sum, s.m, brc);
        require_rows(api, "inMax", in_max, s.m, brc);
        require_rows(api, "expMax", exp_max, s.m, brc);
    }
    for (uint32_t r = 0; r < s.m; ++r) {
        const T1* x = src.data() + uint64_t(r) * s.k;
        const double row_mx = row_max(x, s.reduce_k);
        // Inputs first: max/inMax and sum/inExpSum may be one tensor each.
        const double old_max = is_update ? row_value(in_max, r, brc) : 0.0;
        const double old_sum = is_update ? row_value(in_sum, r, brc) : 0.0;
        const double mx = is_update ? adv::max_nan(old_max, row_mx) : row_mx;
        double total = 0;
        for (uint32_t j = 0; j < s.reduce_k; ++j) total += math::exp(adv::load(x[j]) - mx);
        for (uint32_t j = 0; j < s.k; ++j) dst.data()[uint64_t(r) * s.k + j] = adv::round_once<T1>(math::exp(adv::load(x[j]) - mx));
        if (is_update) {
            const double em = math::exp(old_max - mx);
            total += em * old_sum;
            store_row_value(exp_max, r, em, brc);
            if (reduce_max_out) store_row_value(*reduce_max_out, r, row_mx, false);
        }
        store_row_value(sum, r, total, brc);
        store_row_value(max, r, mx, brc);
    }
    charge_softmax(s.m, s.k, split, adv::is_16bit_float<T1>, false, dst.data(), src.data());
    if (is_update) {
        const char* kinds[] = {"Max", "Sub", "Exp", "Mul", "Add"};
        const uint32_t bytes[] = {32, 32, 32, 32, 32};
        charge_splits(kinds, bytes, 5, s.m, split, sum.data(), in_sum.data());
    }
}

// SoftmaxGrad: d = sum(grad * src) per row; isFront: dst = d ([m, 32 bytes]); else dst = (grad - d) * src.
template <class T>
ASCENDOPT_TWIN_FN void grad(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& grad_t, const LocalTensor<T>& src,
                            const LocalTensor<uint8_t>& tmp, const SoftMaxTiling& tiling, bool is_front,
                            const AscendC::SoftMaxShapeInfo& info) {
    const RowShape s = shape_in_effect(api, info, tiling, true, 0, src.GetShapeInfo());
    const uint32_t row = grad_row(s.k, sizeof(T), is_front);
    const uint32_t split = split_in_effect(api, s, tiling, true, tmp, row,
                                           [&](uint64_t bytes) ASCENDOPT_TWIN_FN { return grad_tiling(s.m, s.k, sizeof(T), bytes, is_front); });
    adv::require(api, "source", src, uint64_t(s.m) * s.k);
    adv::require(api, "grad", grad_t, uint64_t(s.m) * s.k);
    if (is_front) require_rows(api, "destination", dst, s.m, true);
    else adv::require(api, "destination", dst, uint64_t(s.m) * s.k);
    for (uint32_t r = 0; r < s.m; ++r) {
        const uint64_t base = uint64_t(r) * s.k;
        double d = 0;
        for (uint32_t j = 0; j < s.reduce_k; ++j) d += adv::load(grad_t.data()[base + j]) * adv::load(src.data()[base + j]);
        if (is_front) {
            store_row_value(dst, r, d, true);
            continue;
        }
        for (uint32_t j = 0; j < s.k; ++j)
            dst.data()[base + j] = adv::round_once<T>((adv::load(grad_t.data()[base + j]) - d) * adv::load(src.data()[base + j]));
    }
    // Estimate per split: casts of both inputs (16-bit), multiply, reduce sum, broadcast; then,
    // unless isFront, subtract, multiply and the cast back.
    const bool cast = adv::is_16bit_float<T>;
    const char* kinds[9];
    uint32_t bytes[9];
    int n = 0;
    const uint32_t row_bytes = s.k * 4;
    if (cast) { kinds[n] = "Cast"; bytes[n++] = row_bytes; kinds[n] = "Cast"; bytes[n++] = row_bytes; }
    kinds[n] = "Mul"; bytes[n++] = row_bytes;
    kinds[n] = "WholeReduceSum"; bytes[n++] = row_bytes;
    kinds[n] = "Brcb"; bytes[n++] = 32;
    if (!is_front) {
        kinds[n] = "Sub"; bytes[n++] = row_bytes;
        kinds[n] = "Mul"; bytes[n++] = row_bytes;
        if (cast) { kinds[n] = "Cast"; bytes[n++] = row_bytes; }
    }
    charge_splits(kinds, bytes, n, s.m, split, dst.data(), src.data());
}

}  // namespace ascendopt_twin::softmax

namespace AscendC {

// ---- SoftMax ----------------------------------------------------------------------------
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
ASCENDOPT_TWIN_FN void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
                               const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                               const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    ascendopt_twin::softmax::require_nd("SoftMax", isDataFormatNZ);
    ascendopt_twin::softmax::softmax<T, T>("SoftMax", dstTensor, &sumTensor, &maxTensor, srcTensor, sharedTmpBuffer, tiling,
                                           softmaxShapeInfo, config);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
ASCENDOPT_TWIN_FN void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
                               const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    SoftMax<T, isReuseSource, isBasicBlock, isDataFormatNZ, config>(dstTensor, sumTensor, maxTensor, srcTensor,
                                                                    ascendopt_twin::adv::framework_tmp(), tiling, softmaxShapeInfo);
}
// half source with float sum and max.
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
ASCENDOPT_TWIN_FN void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor, const LocalTensor<float>& maxTensor,
                               const LocalTensor<half>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                               const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    ascendopt_twin::softmax::require_nd("SoftMax", isDataFormatNZ);
    ascendopt_twin::softmax::softmax<half, float>("SoftMax", dstTensor, &sumTensor, &maxTensor, srcTensor, sharedTmpBuffer, tiling,
                                                  softmaxShapeInfo, config);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
ASCENDOPT_TWIN_FN void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor, const LocalTensor<float>& maxTensor,
                               const LocalTensor<half>& srcTensor, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    SoftMax<T, isReuseSource, isBasicBlock, isDataFormatNZ, config>(dstTensor, sumTensor, maxTensor, srcTensor,
                                                                    ascendopt_twin::adv::framework_tmp(), tiling, softmaxShapeInfo);
}
// Without sum and max outputs.
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
ASCENDOPT_TWIN_FN void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                               const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    ascendopt_twin::softmax::softmax<T, float>("SoftMax", dstTensor, nullptr, nullptr, srcTensor, sharedTmpBuffer, tiling,
                                               softmaxShapeInfo, config);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
ASCENDOPT_TWIN_FN void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                               const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    SoftMax<T, isReuseSource, isBasicBlock, config>(dstTensor, srcTensor, ascendopt_twin::adv::framework_tmp(), tiling, softmaxShapeInfo);
}

// ---- SimpleSoftMax ----------------------------------------------------------------------
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
ASCENDOPT_TWIN_FN void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor, const LocalTensor<T>& inMaxTensor,
                                     const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                                     const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    ascendopt_twin::softmax::require_nd("SimpleSoftMax", isDataFormatNZ);
    ascendopt_twin::softmax::simple_softmax<T, T>("SimpleSoftMax", dstTensor, inSumTensor, inMaxTensor, srcTensor, sharedTmpBuffer, tiling,
                                                  softmaxShapeInfo, config);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
ASCENDOPT_TWIN_FN void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor, const LocalTensor<T>& inMaxTensor,
                                     const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    SimpleSoftMax<T, isReuseSource, isBasicBlock, isDataFormatNZ, config>(dstTensor, inSumTensor, inMaxTensor, srcTensor,
                                                                          ascendopt_twin::adv::framework_tmp(), tiling, softmaxShapeInfo);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
ASCENDOPT_TWIN_FN void SimpleSoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& inSumTensor,
                                     const LocalTensor<float>& inMaxTensor, const LocalTensor<half>& srcTensor,
                                     const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                                     const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    ascendopt_twin::softmax::require_nd("SimpleSoftMax", isDataFormatNZ);
    ascendopt_twin::softmax::simple_softmax<half, float>("SimpleSoftMax", dstTensor, inSumTensor, inMaxTensor, srcTensor, sharedTmpBuffer,
                                                         tiling, softmaxShapeInfo, config);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
ASCENDOPT_TWIN_FN void SimpleSoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& inSumTensor,
                                     const LocalTensor<float>& inMaxTensor, const LocalTensor<half>& srcTensor, const SoftMaxTiling& tiling,
                                     const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    SimpleSoftMax<T, isReuseSource, isBasicBlock, isDataFormatNZ, config>(dstTensor, inSumTensor, inMaxTensor, srcTensor,
                                                                          ascendopt_twin::adv::framework_tmp(), tiling, softmaxShapeInfo);
}

// ---- SoftmaxFlashV2 ---------------------------------------------------------------------
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
ASCENDOPT_TWIN_FN void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& expSumTensor, const LocalTensor<T>& maxTensor,
                                      const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inExpSumTensor,
                                      const LocalTensor<T>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                      const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    ascendopt_twin::softmax::require_nd("SoftmaxFlashV2", isDataFormatNZ);
    ascendopt_twin::softmax::flash_v2<T, T, isUpdate>("SoftmaxFlashV2", dstTensor, nullptr, expSumTensor, maxTensor, srcTensor, expMaxTensor,
                                                      inExpSumTensor, inMaxTensor, sharedTmpBuffer, tiling, softmaxShapeInfo, config,
                                                      isBasicBlock);
}
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
ASCENDOPT_TWIN_FN void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& expSumTensor, const LocalTensor<T>& maxTensor,
                                      const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inExpSumTensor,
                                      const LocalTensor<T>& inMaxTensor, const SoftMaxTiling& tiling,
                                      const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    SoftmaxFlashV2<T, isUpdate, isReuseSource, isBasicBlock, isDataFormatNZ, config>(
        dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor, ascendopt_twin::adv::framework_tmp(), tiling,
        softmaxShapeInfo);
}
// half source and expMax, float sum and max.
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
ASCENDOPT_TWIN_FN void SoftmaxFlashV2(const LocalTensor<half>& dstTensor, const LocalTensor<float>& expSumTensor,
                                      const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                                      const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inExpSumTensor,
                                      const LocalTensor<float>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                      const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    ascendopt_twin::softmax::require_nd("SoftmaxFlashV2", isDataFormatNZ);
    ascendopt_twin::softmax::flash_v2<half, float, isUpdate>("SoftmaxFlashV2", dstTensor, nullptr, expSumTensor, maxTensor, srcTensor,
                                                             expMaxTensor, inExpSumTensor, inMaxTensor, sharedTmpBuffer, tiling,
                                                             softmaxShapeInfo, config, isBasicBlock);
}
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
ASCENDOPT_TWIN_FN void SoftmaxFlashV2(const LocalTensor<half>& dstTensor, const LocalTensor<float>& expSumTensor,
                                      const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                                      const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inExpSumTensor,
                                      const LocalTensor<float>& inMaxTensor, const SoftMaxTiling& tiling,
                                      const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    SoftmaxFlashV2<T, isUpdate, isReuseSource, isBasicBlock, isDataFormatNZ, config>(
        dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor, ascendopt_twin::adv::framework_tmp(), tiling,
        softmaxShapeInfo);
}
// With outReduceMax: only in SOFTMAX_OUTPUT_WITHOUT_BRC mode; in SOFTMAX_NORMAL mode the
// documented behaviour is that nothing is computed or stored.
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
ASCENDOPT_TWIN_FN void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& outReduceMax, const LocalTensor<T>& expSumTensor,
                                      const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                                      const LocalTensor<T>& inExpSumTensor, const LocalTensor<T>& inMaxTensor,
                                      const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                                      const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    if constexpr (config.mode != SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC) return;
    SoftmaxConfig used = config;
    used.isCheckTiling = false;  // reserved for this overload: the tiling is used as given
    ascendopt_twin::softmax::flash_v2<T, T, isUpdate>("SoftmaxFlashV2", dstTensor, &outReduceMax, expSumTensor, maxTensor, srcTensor,
                                                      expMaxTensor, inExpSumTensor, inMaxTensor, sharedTmpBuffer, tiling, softmaxShapeInfo,
                                                      used, isBasicBlock);
}
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
ASCENDOPT_TWIN_FN void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& outReduceMax, const LocalTensor<T>& outExpSum,
                                      const LocalTensor<T>& outMax, const LocalTensor<T>& srcTensor, const LocalTensor<T>& outExpMax,
                                      const LocalTensor<T>& inExpSum, const LocalTensor<T>& inMax, const SoftMaxTiling& tiling,
                                      const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    SoftmaxFlashV2<T, isUpdate, isReuseSource, isBasicBlock, isDataFormatNZ, config>(dstTensor, outReduceMax, outExpSum, outMax, srcTensor,
                                                                                     outExpMax, inExpSum, inMax,
                                                                                     ascendopt_twin::adv::framework_tmp(), tiling,
                                                                                     softmaxShapeInfo);
}

// Kernel-side tiling for SoftmaxFlashV2; localWorkSpaceSize in bytes.
ASCENDOPT_TWIN_FN constexpr SoftMaxTiling SoftMaxFlashV2TilingFunc(const SoftMaxShapeInfo& shapeInfo, const uint32_t dataTypeSize1,
                                                                  const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                                                  const bool isUpdate = false, const bool isBasicBlock = false,
                                                                  const bool isDataFormatNZ = false, const bool isFlashOutputBrc = false) {
    (void)isUpdate;
    (void)isDataFormatNZ;
    return ascendopt_twin::softmax::flash_v2_tiling(shapeInfo.srcM, shapeInfo.srcK, dataTypeSize1, dataTypeSize2, localWorkSpaceSize,
                                                    isBasicBlock, isFlashOutputBrc);
}
// The same with the space in floats: the internal name kernels of cann-ops call directly.
ASCENDOPT_TWIN_FN constexpr SoftMaxTiling SoftMaxFlashV2TilingFuncImpl(const uint32_t srcM, const uint32_t srcK, const uint32_t dataTypeSize1,
                                                                      const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                                                      const bool isUpdate = false, const bool isBasicBlock = false,
                                                                      const bool isDataFormatNZ = false, const bool isFlashOutputBrc = false) {
    (void)isUpdate;
    (void)isDataFormatNZ;
    return ascendopt_twin::softmax::flash_v2_tiling(srcM, srcK, dataTypeSize1, dataTypeSize2, uint64_t(localWorkSpaceSize) * 4, isBasicBlock,
                                                    isFlashOutputBrc);
}

// ---- SoftmaxGrad, SoftmaxGradFront ------------------------------------------------------
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
ASCENDOPT_TWIN_FN void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling, bool isFront = false,
                                   const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    ascendopt_twin::softmax::require_nd("SoftmaxGrad", isDataFormatNZ);
    ascendopt_twin::softmax::grad("SoftmaxGrad", dstTensor, gradTensor, srcTensor, sharedTmpBuffer, tiling, isFront, softmaxShapeInfo);
}
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
ASCENDOPT_TWIN_FN void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor, const LocalTensor<T>& srcTensor,
                                   const SoftMaxTiling& tiling, bool isFront = false, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    SoftmaxGrad<T, isReuseSource, isDataFormatNZ>(dstTensor, gradTensor, srcTensor, ascendopt_twin::adv::framework_tmp(), tiling, isFront,
                                                  softmaxShapeInfo);
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
ASCENDOPT_TWIN_FN void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor, const LocalTensor<T>& srcTensor,
                                        const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                                        const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    ascendopt_twin::softmax::require_nd("SoftmaxGradFront", isDataFormatNZ);
    ascendopt_twin::softmax::grad("SoftmaxGradFront", dstTensor, gradTensor, srcTensor, sharedTmpBuffer, tiling, true, softmaxShapeInfo);
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
ASCENDOPT_TWIN_FN void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor, const LocalTensor<T>& srcTensor,
                                        const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    SoftmaxGradFront<T, isBasicBlock, isDataFormatNZ>(dstTensor, gradTensor, srcTensor, ascendopt_twin::adv::framework_tmp(), tiling,
                                                      softmaxShapeInfo);
}

}  // namespace AscendC
