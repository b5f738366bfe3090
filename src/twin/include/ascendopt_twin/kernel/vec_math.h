// Elementwise vector APIs: binary (Add, Sub, ...), unary (Exp, Abs, ...), tensor-scalar
// (Adds, Muls, ...), Duplicate and Axpy, each in the count form and both mask/repeat forms.
// The `*_apply` templates hold the one implementation; the macros only spell the overloads.
#pragma once

#include "ascendopt_twin/attrs.h"

#include <cmath>

#include "ascendopt_twin/kernel/math.h"
#include "ascendopt_twin/kernel/vec.h"

namespace ascendopt_twin::detail {

template <class T, class F>
ASCENDOPT_TWIN_FN void binary_count(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& a,
                  const AscendC::LocalTensor<T>& b, int32_t count, F f) {
    if (count < 0) fail(ErrorKind::run_failed, api, "negative count " + std::to_string(count));
    require_count(uint64_t(count), dst, api, "destination");
    require_count(uint64_t(count), a, api, "first source");
    require_count(uint64_t(count), b, api, "second source");
    T* d = dst.data();
    const T* x = a.data();
    const T* y = b.data();
    using C = compute_t<T>;
    for (int32_t i = 0; i < count; ++i) d[i] = static_cast<T>(f(static_cast<C>(x[i]), static_cast<C>(y[i])));
    record_vector<T>(api, uint64_t(count), dst.data(), a.data(), b.data());
}

template <class T, class F>
ASCENDOPT_TWIN_FN void binary_masked(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& a,
                   const AscendC::LocalTensor<T>& b, const Lanes& l, const AscendC::BinaryRepeatParams& p, F f) {
    require_footprint<T>(l, p.dstBlkStride, p.dstRepStride, dst, api, "destination");
    require_footprint<T>(l, p.src0BlkStride, p.src0RepStride, a, api, "first source");
    require_footprint<T>(l, p.src1BlkStride, p.src1RepStride, b, api, "second source");
    using C = compute_t<T>;
    uint64_t n = 0;
    for (uint32_t r = 0; r < l.repeats; ++r)
        for (uint32_t lane = 0; lane < l.lanes_per_repeat; ++lane) {
            if (!l.active(r, lane)) continue;
            const C x = static_cast<C>(a.data()[lane_index<T>(r, lane, p.src0BlkStride, p.src0RepStride)]);
            const C y = static_cast<C>(b.data()[lane_index<T>(r, lane, p.src1BlkStride, p.src1RepStride)]);
            dst.data()[lane_index<T>(r, lane, p.dstBlkStride, p.dstRepStride)] = static_cast<T>(f(x, y));
            ++n;
        }
    record_vector<T>(api, uint64_t(l.repeats) * l.lanes_per_repeat, dst.data(), a.data(), b.data());
}

template <class T, class F>
ASCENDOPT_TWIN_FN void unary_count(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, int32_t count, F f) {
    if (count < 0) fail(ErrorKind::run_failed, api, "negative count " + std::to_string(count));
    require_count(uint64_t(count), dst, api, "destination");
    require_count(uint64_t(count), src, api, "source");
    T* d = dst.data();
    const T* s = src.data();
    using C = compute_t<T>;
    for (int32_t i = 0; i < count; ++i) d[i] = static_cast<T>(f(static_cast<C>(s[i])));
    record_vector<T>(api, uint64_t(count), dst.data(), src.data());
}

template <class T, class F>
ASCENDOPT_TWIN_FN void unary_masked(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, const Lanes& l,
                  const AscendC::UnaryRepeatParams& p, F f) {
    require_footprint<T>(l, p.dstBlkStride, p.dstRepStride, dst, api, "destination");
    require_footprint<T>(l, p.srcBlkStride, p.srcRepStride, src, api, "source");
    using C = compute_t<T>;
    uint64_t n = 0;
    for (uint32_t r = 0; r < l.repeats; ++r)
        for (uint32_t lane = 0; lane < l.lanes_per_repeat; ++lane) {
            if (!l.active(r, lane)) continue;
            const C x = static_cast<C>(src.data()[lane_index<T>(r, lane, p.srcBlkStride, p.srcRepStride)]);
            dst.data()[lane_index<T>(r, lane, p.dstBlkStride, p.dstRepStride)] = static_cast<T>(f(x));
            ++n;
        }
    record_vector<T>(api, uint64_t(l.repeats) * l.lanes_per_repeat, dst.data(), src.data());
}

template <class T>
ASCENDOPT_TWIN_FN T relu_of(T x) { return x > T(0) ? x : T(0); }

}  // namespace ascendopt_twin::detail

// Spells the three overloads of a binary op; EXPR combines `a` and `b` (compute type).
#define ASCENDOPT_TWIN_BINARY_API(NAME, EXPR)                                                                          \
    template <class T>                                                                                                 \
    ASCENDOPT_TWIN_FN void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const int32_t& count) { \
        ascendopt_twin::detail::binary_count(#NAME, dst, src0, src1, count, [](auto a, auto b) ASCENDOPT_TWIN_FN { return EXPR; });     \
    }                                                                                                                  \
    template <class T, bool isSetMask = true>                                                                          \
    ASCENDOPT_TWIN_FN void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint64_t mask,       \
              const uint8_t repeatTimes, const BinaryRepeatParams& p) {                                                \
        const auto l = ascendopt_twin::detail::lanes_from_count<T>(mask, repeatTimes, isSetMask, #NAME);               \
        ascendopt_twin::detail::binary_masked(#NAME, dst, src0, src1, l, p, [](auto a, auto b) ASCENDOPT_TWIN_FN { return EXPR; });     \
    }                                                                                                                  \
    template <class T, bool isSetMask = true>                                                                          \
    ASCENDOPT_TWIN_FN void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const uint64_t mask[], \
              const uint8_t repeatTimes, const BinaryRepeatParams& p) {                                                \
        const auto l = ascendopt_twin::detail::lanes_from_bits<T>(mask, repeatTimes, isSetMask, #NAME);                \
        ascendopt_twin::detail::binary_masked(#NAME, dst, src0, src1, l, p, [](auto a, auto b) ASCENDOPT_TWIN_FN { return EXPR; });     \
    }

// Spells the overloads of a unary op; EXPR maps `a` (compute type).
#define ASCENDOPT_TWIN_UNARY_API(NAME, EXPR)                                                                           \
    template <class T>                                                                                                 \
    ASCENDOPT_TWIN_FN void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {                           \
        ascendopt_twin::detail::unary_count(#NAME, dst, src, count, [](auto a) ASCENDOPT_TWIN_FN { return EXPR; });                     \
    }                                                                                                                  \
    template <class T, bool isSetMask = true>                                                                          \
    ASCENDOPT_TWIN_FN void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask, const uint8_t repeatTimes,          \
              const UnaryRepeatParams& p) {                                                                            \
        const auto l = ascendopt_twin::detail::lanes_from_count<T>(mask, repeatTimes, isSetMask, #NAME);               \
        ascendopt_twin::detail::unary_masked(#NAME, dst, src, l, p, [](auto a) ASCENDOPT_TWIN_FN { return EXPR; });                     \
    }                                                                                                                  \
    template <class T, bool isSetMask = true>                                                                          \
    ASCENDOPT_TWIN_FN void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], const uint8_t repeatTimes,  \
              const UnaryRepeatParams& p) {                                                                            \
        const auto l = ascendopt_twin::detail::lanes_from_bits<T>(mask, repeatTimes, isSetMask, #NAME);                \
        ascendopt_twin::detail::unary_masked(#NAME, dst, src, l, p, [](auto a) ASCENDOPT_TWIN_FN { return EXPR; });                     \
    }

// Spells the overloads of a tensor-scalar op; EXPR maps `a` with scalar `s` (compute type).
#define ASCENDOPT_TWIN_SCALAR_API(NAME, EXPR)                                                                          \
    template <class T>                                                                                                 \
    ASCENDOPT_TWIN_FN void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const ascendopt_twin::detail::same_t<T>& scalar,   \
              const int32_t& count) {                                                                                  \
        using C = ascendopt_twin::detail::compute_t<T>;                                                                \
        const C s = static_cast<C>(scalar);                                                                            \
        ascendopt_twin::detail::unary_count(#NAME, dst, src, count, [s](auto a) ASCENDOPT_TWIN_FN { return EXPR; });                    \
    }                                                                                                                  \
    template <class T, bool isSetMask = true>                                                                          \
    ASCENDOPT_TWIN_FN void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const ascendopt_twin::detail::same_t<T>& scalar,   \
              uint64_t mask, const uint8_t repeatTimes, const UnaryRepeatParams& p) {                                  \
        using C = ascendopt_twin::detail::compute_t<T>;                                                                \
        const C s = static_cast<C>(scalar);                                                                            \
        const auto l = ascendopt_twin::detail::lanes_from_count<T>(mask, repeatTimes, isSetMask, #NAME);               \
        ascendopt_twin::detail::unary_masked(#NAME, dst, src, l, p, [s](auto a) ASCENDOPT_TWIN_FN { return EXPR; });                    \
    }                                                                                                                  \
    template <class T, bool isSetMask = true>                                                                          \
    ASCENDOPT_TWIN_FN void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const ascendopt_twin::detail::same_t<T>& scalar,   \
              const uint64_t mask[], const uint8_t repeatTimes, const UnaryRepeatParams& p) {                          \
        using C = ascendopt_twin::detail::compute_t<T>;                                                                \
        const C s = static_cast<C>(scalar);                                                                            \
        const auto l = ascendopt_twin::detail::lanes_from_bits<T>(mask, repeatTimes, isSetMask, #NAME);                \
        ascendopt_twin::detail::unary_masked(#NAME, dst, src, l, p, [s](auto a) ASCENDOPT_TWIN_FN { return EXPR; });                    \
    }

namespace AscendC {

ASCENDOPT_TWIN_BINARY_API(Add, a + b)
ASCENDOPT_TWIN_BINARY_API(Sub, a - b)
ASCENDOPT_TWIN_BINARY_API(Mul, a * b)
ASCENDOPT_TWIN_BINARY_API(Div, b == decltype(b)(0) && std::is_integral_v<decltype(a)> ? decltype(a)(0) : a / b)
ASCENDOPT_TWIN_BINARY_API(Max, a > b ? a : b)
ASCENDOPT_TWIN_BINARY_API(Min, a < b ? a : b)
ASCENDOPT_TWIN_BINARY_API(And, a & b)
ASCENDOPT_TWIN_BINARY_API(Or, a | b)

ASCENDOPT_TWIN_UNARY_API(Abs, a < decltype(a)(0) ? -a : a)
ASCENDOPT_TWIN_UNARY_API(Exp, ascendopt_twin::math::exp(a))
ASCENDOPT_TWIN_UNARY_API(Ln, ascendopt_twin::math::log(a))
ASCENDOPT_TWIN_UNARY_API(Sqrt, ascendopt_twin::math::sqrt(a))
ASCENDOPT_TWIN_UNARY_API(Rsqrt, decltype(a)(1) / ascendopt_twin::math::sqrt(a))
ASCENDOPT_TWIN_UNARY_API(Reciprocal, decltype(a)(1) / a)
ASCENDOPT_TWIN_UNARY_API(Relu, ascendopt_twin::detail::relu_of(a))
ASCENDOPT_TWIN_UNARY_API(Not, ~a)

ASCENDOPT_TWIN_SCALAR_API(Adds, a + s)
ASCENDOPT_TWIN_SCALAR_API(Muls, a * s)
ASCENDOPT_TWIN_SCALAR_API(Maxs, a > s ? a : s)
ASCENDOPT_TWIN_SCALAR_API(Mins, a < s ? a : s)
ASCENDOPT_TWIN_SCALAR_API(ShiftLeft, a << s)
ASCENDOPT_TWIN_SCALAR_API(ShiftRight, a >> s)
ASCENDOPT_TWIN_SCALAR_API(LeakyRelu, a >= decltype(a)(0) ? a : a * s)

// Advanced math APIs (count form; the optional shared temporary buffer and the isReuseSource
// template flag are accepted and unused: the twin computes each element exactly).
#define ASCENDOPT_TWIN_ADVANCED_UNARY(NAME, EXPR)                                                                      \
    template <class T, bool isReuseSource = false>                                                                     \
    ASCENDOPT_TWIN_FN void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count) {                           \
        ascendopt_twin::detail::unary_count(#NAME, dst, src, int32_t(count), [](auto a) ASCENDOPT_TWIN_FN { return EXPR; });            \
    }                                                                                                                  \
    template <class T, bool isReuseSource = false>                                                                     \
    ASCENDOPT_TWIN_FN void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>&, const uint32_t count) { \
        NAME(dst, src, count);                                                                                         \
    }

ASCENDOPT_TWIN_ADVANCED_UNARY(Sin, ascendopt_twin::math::sin(a))
ASCENDOPT_TWIN_ADVANCED_UNARY(Cos, ascendopt_twin::math::cos(a))
ASCENDOPT_TWIN_ADVANCED_UNARY(Tanh, ascendopt_twin::math::tanh(a))
ASCENDOPT_TWIN_ADVANCED_UNARY(Tan, ascendopt_twin::math::tan(a))
ASCENDOPT_TWIN_ADVANCED_UNARY(Atan, ascendopt_twin::math::atan(a))
ASCENDOPT_TWIN_ADVANCED_UNARY(Asin, ascendopt_twin::math::asin(a))
ASCENDOPT_TWIN_ADVANCED_UNARY(Acos, ascendopt_twin::math::acos(a))
ASCENDOPT_TWIN_ADVANCED_UNARY(Sinh, ascendopt_twin::math::sinh(a))
ASCENDOPT_TWIN_ADVANCED_UNARY(Cosh, ascendopt_twin::math::cosh(a))
ASCENDOPT_TWIN_ADVANCED_UNARY(Erf, ascendopt_twin::math::erf(a))
ASCENDOPT_TWIN_ADVANCED_UNARY(Floor, ascendopt_twin::math::floor(a))
ASCENDOPT_TWIN_ADVANCED_UNARY(Ceil, ascendopt_twin::math::ceil(a))
ASCENDOPT_TWIN_ADVANCED_UNARY(Trunc, ascendopt_twin::math::trunc(a))
ASCENDOPT_TWIN_ADVANCED_UNARY(Frac, a - ascendopt_twin::math::trunc(a))
ASCENDOPT_TWIN_ADVANCED_UNARY(Sign, a > decltype(a)(0) ? decltype(a)(1) : (a < decltype(a)(0) ? decltype(a)(-1) : decltype(a)(0)))

// dst[i] = scalar, count form and mask form.
template <class T>
ASCENDOPT_TWIN_FN void Duplicate(const LocalTensor<T>& dst, const ascendopt_twin::detail::same_t<T>& scalar, const int32_t& count) {
    ascendopt_twin::detail::unary_count("Duplicate", dst, dst, count, [v = scalar](auto) ASCENDOPT_TWIN_FN { return v; });
}
template <class T, bool isSetMask = true>
ASCENDOPT_TWIN_FN void Duplicate(const LocalTensor<T>& dst, const ascendopt_twin::detail::same_t<T>& scalar, uint64_t mask,
               const uint8_t repeatTimes, const uint16_t dstBlockStride, const uint8_t dstRepeatStride) {
    const auto l = ascendopt_twin::detail::lanes_from_count<T>(mask, repeatTimes, isSetMask, "Duplicate");
    const UnaryRepeatParams p(dstBlockStride, dstBlockStride, dstRepeatStride, dstRepeatStride);
    ascendopt_twin::detail::unary_masked("Duplicate", dst, dst, l, p, [v = scalar](auto) ASCENDOPT_TWIN_FN { return v; });
}

template <class T, bool isSetMask = true>
ASCENDOPT_TWIN_FN void Duplicate(const LocalTensor<T>& dst, const ascendopt_twin::detail::same_t<T>& scalar, const uint64_t mask[],
               const uint8_t repeatTimes, const uint16_t dstBlockStride, const uint8_t dstRepeatStride) {
    const auto l = ascendopt_twin::detail::lanes_from_bits<T>(mask, repeatTimes, isSetMask, "Duplicate");
    const UnaryRepeatParams p(dstBlockStride, dstBlockStride, dstRepeatStride, dstRepeatStride);
    ascendopt_twin::detail::unary_masked("Duplicate", dst, dst, l, p, [v = scalar](auto) ASCENDOPT_TWIN_FN { return v; });
}

// dst[i] = dst[i] + src[i] * scalar.
template <class T>
ASCENDOPT_TWIN_FN void Axpy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const ascendopt_twin::detail::same_t<T>& scalar,
          const int32_t& count) {
    using C = ascendopt_twin::detail::compute_t<T>;
    const C s = static_cast<C>(scalar);
    ascendopt_twin::detail::binary_count("Axpy", dst, dst, src, count, [s](auto d, auto x) ASCENDOPT_TWIN_FN { return d + x * s; });
}

struct CopyRepeatParams {
    uint16_t dstStride = DEFAULT_BLK_STRIDE;
    uint16_t srcStride = DEFAULT_BLK_STRIDE;
    uint16_t dstRepeatSize = DEFAULT_REPEAT_STRIDE;
    uint16_t srcRepeatSize = DEFAULT_REPEAT_STRIDE;
    CopyRepeatParams() = default;
    ASCENDOPT_TWIN_FN CopyRepeatParams(uint16_t ds, uint16_t ss, uint16_t dr, uint16_t sr)
        ASCENDOPT_TWIN_FN : dstStride(ds), srcStride(ss), dstRepeatSize(dr), srcRepeatSize(sr) {}
};

// UB -> UB copy through the vector unit, mask form.
template <class T, bool isSetMask = true>
ASCENDOPT_TWIN_FN void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask, const uint8_t repeatTimes,
          const CopyRepeatParams& p) {
    const auto l = ascendopt_twin::detail::lanes_from_count<T>(mask, repeatTimes, isSetMask, "Copy");
    const UnaryRepeatParams u(p.dstStride, p.srcStride, uint8_t(p.dstRepeatSize), uint8_t(p.srcRepeatSize));
    ascendopt_twin::detail::unary_masked("Copy", dst, src, l, u, [](auto a) ASCENDOPT_TWIN_FN { return a; });
}

}  // namespace AscendC
