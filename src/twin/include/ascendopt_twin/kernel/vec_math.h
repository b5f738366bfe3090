// Elementwise vector APIs: binary (Add, Sub, ...), unary (Exp, Abs, ...), tensor-scalar
// (Adds, Muls, ...), Duplicate and Axpy, each in the count form and both mask/repeat forms.
// The `*_apply` templates hold the one implementation; the macros only spell the overloads.
#pragma once

#include "ascendopt_twin/attrs.h"

#include <cmath>
#include <type_traits>

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

template <class T, class U>
ASCENDOPT_TWIN_FN void require_axpy_types() {
    static_assert((std::is_same_v<T, U> && (std::is_same_v<T, Half> || std::is_same_v<T, float>)) ||
                      (std::is_same_v<T, float> && std::is_same_v<U, Half>),
                  "Axpy takes half -> half, float -> float or half -> float (mixed precision)");
}

// Axpy, mask forms: lane `lane` of repeat r of the source (blocks of U) and of the destination
// (blocks of T), each at its own strides.
template <class T, class U>
ASCENDOPT_TWIN_FN void axpy_masked(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& src, float s, const Lanes& l,
                                   const AscendC::UnaryRepeatParams& p) {
    require_axpy_types<T, U>();
    require_footprint<T>(l, p.dstBlkStride, p.dstRepStride, dst, "Axpy", "destination");
    require_footprint<U>(l, p.srcBlkStride, p.srcRepStride, src, "Axpy", "source");
    for (uint32_t r = 0; r < l.repeats; ++r)
        for (uint32_t lane = 0; lane < l.lanes_per_repeat; ++lane) {
            if (!l.active(r, lane)) continue;
            T& d = dst.data()[lane_index<T>(r, lane, p.dstBlkStride, p.dstRepStride)];
            d = static_cast<T>(static_cast<float>(d) + static_cast<float>(src.data()[lane_index<U>(r, lane, p.srcBlkStride, p.srcRepStride)]) * s);
        }
    record_vector<T>("Axpy", uint64_t(l.repeats) * l.lanes_per_repeat, dst.data(), src.data());
}

template <class T>
ASCENDOPT_TWIN_FN T relu_of(T x) { return x > T(0) ? x : T(0); }

// Maximum and minimum propagate NaN (a NaN operand gives NaN, whichever side it is on): the
// twin's reading of the vector unit's comparisons, which published kernels rely on (docs/twin.md
// "NaN in comparisons"). `x != x` is false for integers.
template <class T>
ASCENDOPT_TWIN_FN T max_of(T a, T b) { return a != a ? a : b != b ? b : a > b ? a : b; }
template <class T>
ASCENDOPT_TWIN_FN T min_of(T a, T b) { return a != a ? a : b != b ? b : a < b ? a : b; }

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
ASCENDOPT_TWIN_BINARY_API(Max, ascendopt_twin::detail::max_of(a, b))
ASCENDOPT_TWIN_BINARY_API(Min, ascendopt_twin::detail::min_of(a, b))
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
ASCENDOPT_TWIN_SCALAR_API(Maxs, ascendopt_twin::detail::max_of(a, s))
ASCENDOPT_TWIN_SCALAR_API(Mins, ascendopt_twin::detail::min_of(a, s))
ASCENDOPT_TWIN_SCALAR_API(ShiftLeft, a << s)
ASCENDOPT_TWIN_SCALAR_API(ShiftRight, a >> s)
ASCENDOPT_TWIN_SCALAR_API(LeakyRelu, a >= decltype(a)(0) ? a : a * s)

// The advanced math library (Asin, Sin, Sign, Floor, ...) is in adv_math.h.

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

// Axpy: dst[i] = dst[i] + src[i] * scalar, in float, rounded once to the destination type.
// The documented precision combinations are half -> half and float -> float (a repeat is 256
// bytes of the operands) and the mixed half source -> float destination, whose repeats cover
// 64 elements: four blocks of the source, eight of the destination.
template <class T, class U>
ASCENDOPT_TWIN_FN void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const ascendopt_twin::detail::same_t<U>& scalar,
                            const int32_t& count) {
    ascendopt_twin::detail::require_axpy_types<T, U>();
    if (count < 0) ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, "Axpy", "negative count " + std::to_string(count));
    ascendopt_twin::detail::require_count(uint64_t(count), dst, "Axpy", "destination");
    ascendopt_twin::detail::require_count(uint64_t(count), src, "Axpy", "source");
    const float s = static_cast<float>(scalar);
    for (int32_t i = 0; i < count; ++i) dst.data()[i] = static_cast<T>(static_cast<float>(dst.data()[i]) + static_cast<float>(src.data()[i]) * s);
    ascendopt_twin::detail::record_vector<T>("Axpy", uint64_t(count), dst.data(), src.data());
}
template <class T, class U, bool isSetMask = true>
ASCENDOPT_TWIN_FN void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const ascendopt_twin::detail::same_t<U>& scalar, uint64_t mask,
                            const uint8_t repeatTimes, const UnaryRepeatParams& p) {
    using W = std::conditional_t<(sizeof(T) > sizeof(U)), T, U>;
    const auto l = ascendopt_twin::detail::lanes_from_count<W>(mask, repeatTimes, isSetMask, "Axpy");
    ascendopt_twin::detail::axpy_masked(dst, src, float(scalar), l, p);
}
template <class T, class U, bool isSetMask = true>
ASCENDOPT_TWIN_FN void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const ascendopt_twin::detail::same_t<U>& scalar,
                            const uint64_t mask[], const uint8_t repeatTimes, const UnaryRepeatParams& p) {
    using W = std::conditional_t<(sizeof(T) > sizeof(U)), T, U>;
    const auto l = ascendopt_twin::detail::lanes_from_bits<W>(mask, repeatTimes, isSetMask, "Axpy");
    ascendopt_twin::detail::axpy_masked(dst, src, float(scalar), l, p);
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

}  // namespace AscendC

namespace ascendopt_twin::detail {

// Copy's walk: `repeats` repeats whose elements keep(r, element) selects, the blocks of a repeat
// block-stride apart and repeats repeat-size blocks apart, on each side with its own strides
// (CopyRepeatParams: repeat sizes up to 4095 blocks).
template <class T, class Keep>
ASCENDOPT_TWIN_FN void copy_walk(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, uint32_t repeats, uint32_t per_repeat,
                                 const AscendC::CopyRepeatParams& p, Keep keep) {
    for (uint32_t r = 0; r < repeats; ++r)
        for (uint32_t e = 0; e < per_repeat; ++e) {
            if (!keep(r, e)) continue;
            const uint64_t s = lane_index<T>(r, e, p.srcStride, p.srcRepeatSize), d = lane_index<T>(r, e, p.dstStride, p.dstRepeatSize);
            if (s >= src.extent()) check_ub_access("Copy", "source", src.data(), (s + 1) * sizeof(T), uint64_t(src.extent()) * sizeof(T));
            if (d >= dst.extent()) check_ub_access("Copy", "destination", dst.data(), (d + 1) * sizeof(T), uint64_t(dst.extent()) * sizeof(T));
            dst.data()[d] = src.data()[s];
        }
    record_vector<T>("Copy", uint64_t(repeats) * per_repeat, dst.data(), src.data());
}

// Copy, mask forms. In counter mode Copy differs from the other vector instructions: its
// documentation makes the counter the elements of each repeat, repeatTime still counting
// (gather_v3 copies `repeatTime` rows of one counted length each); elsewhere the counter is the
// total and repeatTime has no effect.
template <class T>
ASCENDOPT_TWIN_FN void copy_masked(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, const Lanes& l, uint8_t repeatTimes,
                                   const AscendC::CopyRepeatParams& p) {
    if (l.counter) {
        copy_walk(dst, src, repeatTimes, uint32_t(l.count), p, [](uint32_t, uint32_t) ASCENDOPT_TWIN_FN { return true; });
        return;
    }
    copy_walk(dst, src, l.repeats, l.lanes_per_repeat, p, [&](uint32_t r, uint32_t e) ASCENDOPT_TWIN_FN { return l.active(r, e); });
}

}  // namespace ascendopt_twin::detail

namespace AscendC {

// UB -> UB copy through the vector unit, mask forms.
template <class T, bool isSetMask = true>
ASCENDOPT_TWIN_FN void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask, const uint8_t repeatTimes,
          const CopyRepeatParams& p) {
    ascendopt_twin::detail::copy_masked(dst, src, ascendopt_twin::detail::lanes_from_count<T>(mask, repeatTimes, isSetMask, "Copy"), repeatTimes, p);
}
template <class T, bool isSetMask = true>
ASCENDOPT_TWIN_FN void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], const uint8_t repeatTimes,
          const CopyRepeatParams& p) {
    ascendopt_twin::detail::copy_masked(dst, src, ascendopt_twin::detail::lanes_from_bits<T>(mask, repeatTimes, isSetMask, "Copy"), repeatTimes, p);
}


// dst = a + b (and -, *, /, |, &): the binary API over a.GetSize() elements, as the operator
// overloads of LocalTensor do.
enum class TensorOp : uint8_t { add, sub, mul, div, bit_or, bit_and };
template <class T>
struct TensorBinaryExpr {
    const LocalTensor<T>& a;
    const LocalTensor<T>& b;
    TensorOp op;
    template <class U>
    ASCENDOPT_TWIN_FN void assign_to(const LocalTensor<U>& dst) const {
        static_assert(std::is_same_v<T, U>, "the operands and the destination of a tensor expression share one type");
        const int32_t n = int32_t(a.GetSize());
        switch (op) {
            case TensorOp::add: Add(dst, a, b, n); break;
            case TensorOp::sub: Sub(dst, a, b, n); break;
            case TensorOp::mul: Mul(dst, a, b, n); break;
            case TensorOp::div: Div(dst, a, b, n); break;
            case TensorOp::bit_or:
            case TensorOp::bit_and:
                if constexpr (std::is_integral_v<T>) {
                    if (op == TensorOp::bit_or) Or(dst, a, b, n);
                    else And(dst, a, b, n);
                } else {
                    ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, op == TensorOp::bit_or ? "operator|" : "operator&",
                                         "bitwise operators take integer tensors");
                }
                break;
        }
    }
};
#define ASCENDOPT_TWIN_TENSOR_OPERATOR(OP, KIND)                                                         \
    template <class T>                                                                                   \
    ASCENDOPT_TWIN_FN TensorBinaryExpr<T> operator OP(const LocalTensor<T>& a, const LocalTensor<T>& b) { \
        return TensorBinaryExpr<T>{a, b, TensorOp::KIND};                                                \
    }
ASCENDOPT_TWIN_TENSOR_OPERATOR(+, add)
ASCENDOPT_TWIN_TENSOR_OPERATOR(-, sub)
ASCENDOPT_TWIN_TENSOR_OPERATOR(*, mul)
ASCENDOPT_TWIN_TENSOR_OPERATOR(/, div)
ASCENDOPT_TWIN_TENSOR_OPERATOR(|, bit_or)
ASCENDOPT_TWIN_TENSOR_OPERATOR(&, bit_and)
#undef ASCENDOPT_TWIN_TENSOR_OPERATOR

}  // namespace AscendC
