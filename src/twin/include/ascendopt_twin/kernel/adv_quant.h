// Quantization: SetDeqScale (the DEQSCALE register), and the advanced APIs AscendQuant (int8
// destination, per tensor and per channel), AscendDequant (int32 source, DequantParams and
// calCount forms) and AscendAntiQuant (int8 source, per tensor and per channel).
//
// Each follows the documented algorithm step by step, each step rounding as its vector
// instruction does:
//  - AscendQuant: source, scale and offset to half; x * scale, rounded to half; + offset,
//    rounded to half; to int8 rounding half to even, saturating.
//  - AscendDequant: source (int32) and scale to float; the product rounded to float; to the
//    destination type (nearest even).
//  - AscendAntiQuant: half destination: source to half, + offset (half), * scale (half);
//    bfloat16_t destination: the same in float, then to bfloat16_t (nearest even).
#pragma once

#include "ascendopt_twin/attrs.h"

#include <cstring>

#include "ascendopt_twin/kernel/adv_api.h"

namespace ascendopt_twin::quant {

// The DEQSCALE register of the current core (SetDeqScale). The s322f16 Cast uses `scale`.
struct DeqScaleState {
    Half scale = Half(1.0f);
    float s16_scale = 1.0f;
    int16_t s16_offset = 0;
    bool s16_signed = true;
    const void* vdeq = nullptr;
};
ASCENDOPT_TWIN_FN inline DeqScaleState& deq_scale_state() {
    static thread_local DeqScaleState state;
    return state;
}

template <class T>
ASCENDOPT_TWIN_FN double rint_saturate(double v, double lo, double hi) {
    if (math::isnan(v)) return 0;
    const double r = math::nearbyint(v);
    return r < lo ? lo : (r > hi ? hi : r);
}

// One AscendQuant element: the documented half arithmetic.
ASCENDOPT_TWIN_FN inline int8_t quant_one(double x, double scale, double offset) {
    const float h = float(Half(float(x)));
    const float t1 = float(Half(h * float(Half(float(scale)))));
    const float t2 = float(Half(t1 + float(Half(float(offset)))));
    return static_cast<int8_t>(rint_saturate<int8_t>(t2, -128, 127));
}

template <class T>
ASCENDOPT_TWIN_FN void check_quant_source(const char* api) {
    static_assert(std::is_same_v<T, Half> || std::is_same_v<T, float>, "AscendQuant takes half or float sources");
    (void)api;
}

// Scale/offset element for element `e`: tensors of `count` elements cycle (per channel).
template <class T>
ASCENDOPT_TWIN_FN double channel(const AscendC::LocalTensor<T>* t, uint32_t count, double scalar, uint64_t e) {
    return t ? adv::load(t->data()[e % count]) : scalar;
}

template <class T>
ASCENDOPT_TWIN_FN void ascend_quant(const AscendC::LocalTensor<int8_t>& dst, const AscendC::LocalTensor<T>& src,
                                    const AscendC::LocalTensor<uint8_t>& tmp, const AscendC::LocalTensor<T>* scale, uint32_t scale_count,
                                    double scale_value, const AscendC::LocalTensor<T>* offset, uint32_t offset_count, double offset_value,
                                    uint32_t count) {
    const char* api = "AscendQuant";
    check_quant_source<T>(api);
    if (scale && scale_count == 0) adv::fail_api(api, "scaleCount is 0");
    if (offset && offset_count == 0) adv::fail_api(api, "offsetCount is 0");
    adv::require_tmp(api, tmp, 2 * 256);  // the documented minimum (GetAscendQuantMaxMinTmpSize)
    adv::require(api, "source", src, count);
    adv::require(api, "destination", dst, count);
    if (scale) adv::require(api, "scale", *scale, scale_count);
    if (offset) adv::require(api, "offset", *offset, offset_count);
    for (uint64_t e = 0; e < count; ++e)
        dst.data()[e] = quant_one(adv::load(src.data()[e]), channel(scale, scale_count, scale_value, e),
                                  channel(offset, offset_count, offset_value, e));
    const uint64_t bytes = uint64_t(count) * 2;
    if (!std::is_same_v<T, Half>) adv::charge("Cast", uint64_t(count) * 4, tmp.data(), src.data());
    adv::charge(scale ? "Mul" : "Muls", bytes, tmp.data(), src.data());
    adv::charge(offset ? "Add" : "Adds", bytes, tmp.data(), tmp.data());
    adv::charge("Cast", bytes, dst.data(), tmp.data());
}

// Scale as float: a uint64_t scale carries it in its low 32 bits.
template <class S>
ASCENDOPT_TWIN_FN float scale_float(const S& s) {
    if constexpr (std::is_same_v<S, uint64_t>) {
        const uint32_t low = static_cast<uint32_t>(s & 0xffffffffu);
        return bits_float(low);
    } else {
        return float(adv::load(s));
    }
}

template <class D>
ASCENDOPT_TWIN_FN D from_float(float v) {
    if constexpr (adv::is_16bit_float<D>) return D(v);
    else return static_cast<D>(v);
}

}  // namespace ascendopt_twin::quant

namespace AscendC {

// ---- SetDeqScale --------------------------------------------------------------------------
struct VdeqInfo {
    VdeqInfo() = default;
    ASCENDOPT_TWIN_FN VdeqInfo(const float scale[16], const int16_t offset[16], const bool signMode[16]) {
        for (int i = 0; i < 16; ++i) {
            vdeqScale[i] = scale[i];
            vdeqOffset[i] = offset[i];
            vdeqSignMode[i] = signMode[i];
        }
    }
    float vdeqScale[16] = {};
    int16_t vdeqOffset[16] = {};
    bool vdeqSignMode[16] = {};
};

// The s322f16 scale (Cast int32_t -> half, AddDeqRelu, CastDequant). The twin's Cast applies
// no scale yet, so a scale other than 1 is refused rather than ignored (docs/twin.md).
ASCENDOPT_TWIN_FN inline void SetDeqScale(half scale) {
    if (float(scale) != 1.0f)
        ascendopt_twin::adv::fail_api("SetDeqScale", "scale " + std::to_string(float(scale)) +
                                                         ": the twin's Cast int32_t->half applies a DEQSCALE of 1 only");
    ascendopt_twin::quant::deq_scale_state().scale = scale;
}
// The s162b8 CastDequant parameters (offset: 9 bits, signMode: signed result).
ASCENDOPT_TWIN_FN inline void SetDeqScale(float scale, int16_t offset, bool signMode) {
    auto& st = ascendopt_twin::quant::deq_scale_state();
    st.s16_scale = scale;
    st.s16_offset = static_cast<int16_t>(int16_t(offset << 7) >> 7);
    st.s16_signed = signMode;
}
// Vector dequantization: fills the 128-byte vdeq tensor with 16 (scale, offset, signMode) words.
template <typename T>
ASCENDOPT_TWIN_FN void SetDeqScale(const LocalTensor<T>& vdeq, const VdeqInfo& vdeqInfo) {
    static_assert(std::is_same_v<T, uint64_t>, "the vdeq tensor is uint64_t");
    ascendopt_twin::adv::require("SetDeqScale", "vdeq", vdeq, 16);
    for (int i = 0; i < 16; ++i) {
        const uint64_t word = uint64_t(ascendopt_twin::float_bits(vdeqInfo.vdeqScale[i])) |
                              (uint64_t(uint16_t(vdeqInfo.vdeqOffset[i]) & 0x1ffu) << 37) | (uint64_t(vdeqInfo.vdeqSignMode[i]) << 46);
        vdeq.data()[i] = word;
    }
    ascendopt_twin::quant::deq_scale_state().vdeq = vdeq.data();
}

// ---- AscendQuant (int8_t destination) -----------------------------------------------------
struct AscendQuantConfig {
    uint32_t calcCount = 0;
    uint32_t offsetCount = 0;
    uint32_t scaleCount = 0;
    uint32_t workLocalSize = 0;
};
constexpr AscendQuantConfig ASCEND_QUANT_DEFAULT_CFG = {0, 0, 0, 0};

// Per tensor.
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
ASCENDOPT_TWIN_FN void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                   const float scale, const float offset, const uint32_t calCount) {
    ascendopt_twin::quant::ascend_quant<T>(dstTensor, srcTensor, sharedTmpBuffer, nullptr, 0, scale, nullptr, 0, offset, calCount);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
ASCENDOPT_TWIN_FN void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                   const float scale, const float offset) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, sharedTmpBuffer, scale, offset, srcTensor.GetSize());
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
ASCENDOPT_TWIN_FN void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor, const float scale, const float offset,
                                   const uint32_t calCount) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, ascendopt_twin::adv::framework_tmp(), scale, offset, calCount);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
ASCENDOPT_TWIN_FN void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor, const float scale, const float offset) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, ascendopt_twin::adv::framework_tmp(), scale, offset, srcTensor.GetSize());
}
// Per channel: element e uses scale[e % scaleCount] (and offset[e % offsetCount]).
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
ASCENDOPT_TWIN_FN void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                   const LocalTensor<T>& scaleTensor, const T offset, const uint32_t scaleCount, const uint32_t calCount) {
    ascendopt_twin::quant::ascend_quant<T>(dstTensor, srcTensor, sharedTmpBuffer, &scaleTensor, scaleCount, 0, nullptr, 0,
                                           ascendopt_twin::adv::load(offset), calCount);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
ASCENDOPT_TWIN_FN void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                   const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor, const uint32_t scaleCount,
                                   const uint32_t offsetCount, const uint32_t calCount) {
    ascendopt_twin::quant::ascend_quant<T>(dstTensor, srcTensor, sharedTmpBuffer, &scaleTensor, scaleCount, 0, &offsetTensor, offsetCount, 0,
                                           calCount);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
ASCENDOPT_TWIN_FN void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                   const LocalTensor<T>& scaleTensor, const T offset) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, sharedTmpBuffer, scaleTensor, offset, scaleTensor.GetSize(), srcTensor.GetSize());
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
ASCENDOPT_TWIN_FN void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                   const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, sharedTmpBuffer, scaleTensor, offsetTensor, scaleTensor.GetSize(),
                                          offsetTensor.GetSize(), srcTensor.GetSize());
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
ASCENDOPT_TWIN_FN void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<T>& scaleTensor,
                                   const T offset, const uint32_t scaleCount, const uint32_t calCount) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, ascendopt_twin::adv::framework_tmp(), scaleTensor, offset, scaleCount, calCount);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
ASCENDOPT_TWIN_FN void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<T>& scaleTensor,
                                   const LocalTensor<T>& offsetTensor, const uint32_t scaleCount, const uint32_t offsetCount,
                                   const uint32_t calCount) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, ascendopt_twin::adv::framework_tmp(), scaleTensor, offsetTensor, scaleCount,
                                          offsetCount, calCount);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
ASCENDOPT_TWIN_FN void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<T>& scaleTensor,
                                   const T offset) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, ascendopt_twin::adv::framework_tmp(), scaleTensor, offset);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
ASCENDOPT_TWIN_FN void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<T>& scaleTensor,
                                   const LocalTensor<T>& offsetTensor) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, ascendopt_twin::adv::framework_tmp(), scaleTensor, offsetTensor);
}

// ---- AscendDequant ------------------------------------------------------------------------
enum class DeQuantMode { DEQUANT_WITH_SINGLE_ROW, DEQUANT_WITH_MULTI_ROW };

struct DequantParams {
    uint32_t m = 0;
    uint32_t n = 0;
    uint32_t calCount = 0;
};

}  // namespace AscendC

namespace ascendopt_twin::quant {

// dst row i, element j (j < calCount) = src[i][j] * scale[j] (or the scalar); the rows of dst
// are n rounded up to 32 bytes of dstT. Elements calCount.. of each dst row are not written.
template <class D, class S, AscendC::DeQuantMode mode>
ASCENDOPT_TWIN_FN void dequant(const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<int32_t>& src, const AscendC::LocalTensor<S>* scale,
                               float scalar, const AscendC::LocalTensor<uint8_t>& tmp, AscendC::DequantParams p) {
    const char* api = "AscendDequant";
    if (p.m == 0 || p.n == 0 || p.calCount == 0 || p.calCount > p.n)
        adv::fail_api(api, "DequantParams {m " + adv::num(p.m) + ", n " + adv::num(p.n) + ", calCount " + adv::num(p.calCount) +
                               "}: all must be positive and calCount <= n");
    if (p.n * 4 % 32 != 0) adv::fail_api(api, "n " + adv::num(p.n) + " int32_t elements are not a whole number of 32-byte blocks");
    if (mode == AscendC::DeQuantMode::DEQUANT_WITH_SINGLE_ROW && p.m == 1 && p.calCount % (32 / sizeof(D)) == 0 && p.n % p.calCount == 0)
        p = {p.n / p.calCount, p.calCount, p.calCount};
    const uint32_t n_dst = (p.n * sizeof(D) + 31) / 32 * 32 / sizeof(D);
    adv::require_tmp(api, tmp, (64u + p.n + p.n + 8u) * 4u);  // the documented minimum for a row of n
    adv::require(api, "source", src, uint64_t(p.m) * p.n);
    adv::require(api, "destination", dst, uint64_t(p.m - 1) * n_dst + p.calCount);
    if (scale) adv::require(api, "deqScale", *scale, p.calCount);
    for (uint32_t i = 0; i < p.m; ++i)
        for (uint32_t j = 0; j < p.calCount; ++j) {
            const float s = scale ? scale_float(scale->data()[j]) : scalar;
            const float x = static_cast<float>(src.data()[uint64_t(i) * p.n + j]);
            dst.data()[uint64_t(i) * n_dst + j] = from_float<D>(x * s);
        }
    const uint64_t elems = uint64_t(p.m) * p.n;
    adv::charge("Cast", elems * 4, tmp.data(), src.data());
    adv::charge(scale ? "Mul" : "Muls", elems * 4, tmp.data(), tmp.data());
    if (!std::is_same_v<D, float>) adv::charge("Cast", elems * 4, dst.data(), tmp.data());
}

}  // namespace ascendopt_twin::quant

namespace AscendC {

template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
ASCENDOPT_TWIN_FN void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor, const LocalTensor<scaleT>& deqScale,
                                     const LocalTensor<uint8_t>& sharedTmpBuffer, DequantParams params) {
    ascendopt_twin::quant::dequant<dstT, scaleT, mode>(dstTensor, srcTensor, &deqScale, 0.0f, sharedTmpBuffer, params);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
ASCENDOPT_TWIN_FN void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor, const LocalTensor<scaleT>& deqScale,
                                     DequantParams params) {
    AscendDequant<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, ascendopt_twin::adv::framework_tmp(), params);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
ASCENDOPT_TWIN_FN void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor, const scaleT deqScale,
                                     const LocalTensor<uint8_t>& sharedTmpBuffer, DequantParams params) {
    ascendopt_twin::quant::dequant<dstT, scaleT, mode>(dstTensor, srcTensor, static_cast<const LocalTensor<scaleT>*>(nullptr),
                                                       ascendopt_twin::quant::scale_float(deqScale), sharedTmpBuffer, params);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
ASCENDOPT_TWIN_FN void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor, const scaleT deqScale,
                                     DequantParams params) {
    AscendDequant<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, ascendopt_twin::adv::framework_tmp(), params);
}
// One row of calCount elements (the scale's first calCount elements).
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
ASCENDOPT_TWIN_FN void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor, const LocalTensor<scaleT>& deqScale,
                                     const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
    const uint32_t n = (calCount + 7) / 8 * 8;
    AscendDequant<dstT, scaleT, DeQuantMode::DEQUANT_WITH_MULTI_ROW>(dstTensor, srcTensor, deqScale, sharedTmpBuffer, DequantParams{1, n, calCount});
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
ASCENDOPT_TWIN_FN void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor, const LocalTensor<scaleT>& deqScale,
                                     const LocalTensor<uint8_t>& sharedTmpBuffer) {
    AscendDequant<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, sharedTmpBuffer, deqScale.GetSize());
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
ASCENDOPT_TWIN_FN void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor, const LocalTensor<scaleT>& deqScale,
                                     const uint32_t calCount) {
    AscendDequant<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, ascendopt_twin::adv::framework_tmp(), calCount);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
ASCENDOPT_TWIN_FN void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor, const LocalTensor<scaleT>& deqScale) {
    AscendDequant<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, ascendopt_twin::adv::framework_tmp(), deqScale.GetSize());
}

// ---- AscendAntiQuant ----------------------------------------------------------------------
struct AntiQuantShapeInfo {
    uint32_t offsetHeight{0};
    uint32_t offsetWidth{0};
    uint32_t scaleHeight{0};
    uint32_t scaleWidth{0};
};

}  // namespace AscendC

namespace ascendopt_twin::quant {

// dst[i][j] = (src[i][j] + offset[g][j]) * scale[g][j] with the documented grouping: not
// transposed, src is [K, N] and parameters [groups, N] (group g = i / (K / groups)); transposed,
// src is [N, K] and parameters [N, groups] (g = j / (K / groups)). Without shape information a
// parameter tensor is one group ([1, N], transposed [N, 1]).
template <class In, class Out>
ASCENDOPT_TWIN_FN void antiquant(const AscendC::LocalTensor<Out>& dst, const AscendC::LocalTensor<In>& src, const AscendC::LocalTensor<Out>* offset,
                                 const AscendC::LocalTensor<Out>* scale, double offset_value, double scale_value,
                                 const AscendC::LocalTensor<uint8_t>* tmp, uint32_t k, const AscendC::AntiQuantShapeInfo& info, bool transpose) {
    const char* api = "AscendAntiQuant";
    static_assert(std::is_same_v<In, int8_t>, "the twin's AscendAntiQuant takes int8_t sources");
    static_assert(std::is_same_v<Out, Half> || std::is_same_v<Out, BFloat16>, "AscendAntiQuant writes half or bfloat16_t");
    if (k == 0) adv::fail_api(api, "k is 0");
    const uint64_t total = src.GetSize();
    if (total % k != 0) adv::fail_api(api, "the source's " + adv::num(total) + " elements are not a multiple of k " + adv::num(k));
    const uint32_t n = static_cast<uint32_t>(total / k);
    const uint32_t rows = transpose ? n : k, cols = transpose ? k : n;
    const bool per_channel = scale != nullptr;
    uint32_t groups = 1;
    if (per_channel) {
        const uint32_t g = transpose ? info.scaleWidth : info.scaleHeight;
        groups = g ? g : 1u;
        if (k % groups != 0) adv::fail_api(api, "k " + adv::num(k) + " is not a multiple of the " + adv::num(groups) + " parameter groups");
        adv::require(api, "scale", *scale, uint64_t(groups) * n);
        if (offset) adv::require(api, "offset", *offset, uint64_t(groups) * n);
    }
    const uint32_t group_len = k / groups;
    constexpr bool bf16 = std::is_same_v<Out, BFloat16>;
    if (bf16 && tmp) {
        const uint32_t need = !per_channel ? 1024u : (transpose ? 80u * groups * n * 4u : groups * n * 2u * 4u + 64u * k * 4u);
        adv::require_tmp(api, *tmp, need);
    }
    adv::require(api, "source", src, total);
    adv::require(api, "destination", dst, total);
    for (uint32_t i = 0; i < rows; ++i)
        for (uint32_t j = 0; j < cols; ++j) {
            uint64_t p = 0;  // parameter index in [groups, N] or [N, groups]
            if (per_channel) p = transpose ? uint64_t(i) * groups + j / group_len : uint64_t(i / group_len) * n + j;
            const double off = offset ? adv::load(offset->data()[p]) : offset_value;
            const double sc = scale ? adv::load(scale->data()[p]) : scale_value;
            const uint64_t at = uint64_t(i) * cols + j;
            const double x = double(src.data()[at]);
            if constexpr (bf16) {
                const float t = float(x) + float(off);
                dst.data()[at] = BFloat16(t * float(sc));
            } else {
                const float t = float(Half(float(x) + float(Half(float(off)))));
                dst.data()[at] = Half(t * float(Half(float(sc))));
            }
        }
    adv::charge("Cast", total * 2, dst.data(), src.data());
    if (bf16) adv::charge("Cast", total * 4, dst.data(), dst.data());
    if (offset || offset_value != 0) adv::charge(offset ? "Add" : "Adds", total * (bf16 ? 4 : 2), dst.data(), dst.data());
    adv::charge(scale ? "Mul" : "Muls", total * (bf16 ? 4 : 2), dst.data(), dst.data());
    if (bf16) adv::charge("Cast", total * 4, dst.data(), dst.data());
}

}  // namespace ascendopt_twin::quant

namespace AscendC {

template <typename InputDataType, typename OutputDataType, bool isTranspose>
ASCENDOPT_TWIN_FN void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                       const LocalTensor<OutputDataType>& offset, const LocalTensor<OutputDataType>& scale,
                                       const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k, const AntiQuantShapeInfo& shapeInfo = {}) {
    ascendopt_twin::quant::antiquant<InputDataType, OutputDataType>(dst, src, &offset, &scale, 0, 0, &sharedTmpBuffer, k, shapeInfo, isTranspose);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
ASCENDOPT_TWIN_FN void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                       const LocalTensor<OutputDataType>& scale, const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                                       const AntiQuantShapeInfo& shapeInfo = {}) {
    ascendopt_twin::quant::antiquant<InputDataType, OutputDataType>(dst, src, nullptr, &scale, 0, 0, &sharedTmpBuffer, k, shapeInfo, isTranspose);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
ASCENDOPT_TWIN_FN void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src, const OutputDataType offset,
                                       const OutputDataType scale, const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                                       const AntiQuantShapeInfo& shapeInfo = {}) {
    ascendopt_twin::quant::antiquant<InputDataType, OutputDataType>(dst, src, nullptr, nullptr, ascendopt_twin::adv::load(offset),
                                                                    ascendopt_twin::adv::load(scale), &sharedTmpBuffer, k, shapeInfo, isTranspose);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
ASCENDOPT_TWIN_FN void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src, const OutputDataType scale,
                                       const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k, const AntiQuantShapeInfo& shapeInfo = {}) {
    ascendopt_twin::quant::antiquant<InputDataType, OutputDataType>(dst, src, nullptr, nullptr, 0, ascendopt_twin::adv::load(scale),
                                                                    &sharedTmpBuffer, k, shapeInfo, isTranspose);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
ASCENDOPT_TWIN_FN void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                       const LocalTensor<OutputDataType>& offset, const LocalTensor<OutputDataType>& scale, const uint32_t k,
                                       const AntiQuantShapeInfo& shapeInfo = {}) {
    const auto tmp = ascendopt_twin::adv::framework_tmp();
    ascendopt_twin::quant::antiquant<InputDataType, OutputDataType>(dst, src, &offset, &scale, 0, 0, &tmp, k, shapeInfo, isTranspose);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
ASCENDOPT_TWIN_FN void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src, const OutputDataType offset,
                                       const OutputDataType scale, const uint32_t k, const AntiQuantShapeInfo& shapeInfo = {}) {
    const auto tmp = ascendopt_twin::adv::framework_tmp();
    ascendopt_twin::quant::antiquant<InputDataType, OutputDataType>(dst, src, nullptr, nullptr, ascendopt_twin::adv::load(offset),
                                                                    ascendopt_twin::adv::load(scale), &tmp, k, shapeInfo, isTranspose);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
ASCENDOPT_TWIN_FN void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                       const LocalTensor<OutputDataType>& scale, const uint32_t k, const AntiQuantShapeInfo& shapeInfo = {}) {
    const auto tmp = ascendopt_twin::adv::framework_tmp();
    ascendopt_twin::quant::antiquant<InputDataType, OutputDataType>(dst, src, nullptr, &scale, 0, 0, &tmp, k, shapeInfo, isTranspose);
}

}  // namespace AscendC
