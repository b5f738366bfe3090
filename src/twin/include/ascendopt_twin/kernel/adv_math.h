// The advanced math library of Ascend C (lib/math/kernel_operator_<name>_intf.h): Asin, Acos,
// Atan, Sin, Cos, Tan, Tanh, Sinh, Cosh, Asinh, Acosh, Atanh, Erf, Erfc, Exp (with its Taylor
// level), Log/Log2/Log10, Power, Sigmoid, Round, Sign, Frac, Floor, Ceil, Trunc and Xor.
//
// Each comes in the documented forms: with a sharedTmpBuffer or without, over calCount
// elements or over the whole source tensor (its GetSize()). The twin needs no temporary
// space, but it checks a sharedTmpBuffer as the device would depend on it: at least the
// minimum that Get<Name>MaxMinTmpSize reports (math_tmp.h), inside its UB buffer, and not
// overlapping the source or the destination.
//
// Accuracy: the device evaluates polynomial approximations in float; the twin computes each
// element in double and rounds once to the destination type (nearest even), so its results
// are the correctly rounded values (docs/twin.md, "Advanced math"). isReuseSource is accepted
// and has no effect (the twin never writes the source).
//
// Timing: one call is one vector instruction of kind <Name> over the elements in the compute
// type (float for 16-bit sources); share/soc/*.toml charges each kind the repeats of the
// instruction sequence the device runs (docs/timing-model.md).
#pragma once

#include "ascendopt_twin/attrs.h"

#include <string>
#include <type_traits>

#include "ascendopt_twin/kernel/vec_cast.h"
#include "ascendopt_twin/kernel/vec_math.h"
#include "ascendopt_twin/math_tmp.h"

namespace ascendopt_twin::advmath {

// Builtins, as math.h explains: no <cmath> wrappers in twin code.
ASCENDOPT_TWIN_FN inline double erfc(double x) { return __builtin_erfc(x); }
ASCENDOPT_TWIN_FN inline double asinh(double x) { return __builtin_asinh(x); }
ASCENDOPT_TWIN_FN inline double acosh(double x) { return __builtin_acosh(x); }
ASCENDOPT_TWIN_FN inline double atanh(double x) { return __builtin_atanh(x); }
ASCENDOPT_TWIN_FN inline double log2(double x) { return __builtin_log2(x); }
ASCENDOPT_TWIN_FN inline double log10(double x) { return __builtin_log10(x); }
ASCENDOPT_TWIN_FN inline double pow(double x, double y) { return __builtin_pow(x, y); }
ASCENDOPT_TWIN_FN inline double sign(double x) { return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0); }
ASCENDOPT_TWIN_FN inline double sigmoid(double x) { return 1.0 / (1.0 + __builtin_exp(-x)); }

// Integer power as the int32 Power computes it: wrapping multiplication; a negative exponent
// gives 0 except for the bases 1 and -1.
ASCENDOPT_TWIN_FN inline int64_t ipow(int64_t base, int64_t exponent) {
    if (exponent < 0) return base == 1 ? 1 : (base == -1 ? ((-exponent) % 2 ? -1 : 1) : 0);
    uint32_t r = 1, b = uint32_t(base);
    for (uint64_t e = uint64_t(exponent); e; e >>= 1) {
        if (e & 1u) r *= b;
        b *= b;
    }
    return int32_t(r);
}

}  // namespace ascendopt_twin::advmath

namespace ascendopt_twin::detail {

// `v` rounded once to T: floating types to nearest even (through float, corrected where the
// float rounding left a tie of T that v does not sit on), integers truncated and saturated.
template <class T>
ASCENDOPT_TWIN_FN T round_once(double v) {
    if constexpr (std::is_same_v<T, float>) {
        return static_cast<float>(v);
    } else if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
        const T r = T(static_cast<float>(v));
        const double rd = double(float(r));
        if (math::isnan(v) || rd == v || math::isinf(rd)) return r;
        const T other = step(r, v > rd);
        const double od = double(float(other));
        const double er = rd > v ? rd - v : v - rd, eo = od > v ? od - v : v - od;
        return (eo < er || (eo == er && (other.bits & 1u) == 0)) ? other : r;
    } else {
        return cast_value<T>(v, AscendC::RoundMode::CAST_TRUNC);
    }
}

template <class T>
ASCENDOPT_TWIN_FN double widen(T v) {
    if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) return double(float(v));
    else return static_cast<double>(v);
}

ASCENDOPT_TWIN_FN inline bool overlaps(const void* a, uint64_t a_bytes, const void* b, uint64_t b_bytes) {
    const auto* x = static_cast<const uint8_t*>(a);
    const auto* y = static_cast<const uint8_t*>(b);
    return a_bytes && b_bytes && x < y + b_bytes && y < x + a_bytes;
}

// Checks a sharedTmpBuffer: its size (GetSize bytes) at least the API's minimum, that many
// bytes inside its UB buffer, and no overlap with the operands the API reads or writes.
template <class T>
ASCENDOPT_TWIN_FN void require_tmp(const char* api, math_tmp::Api which, const AscendC::LocalTensor<uint8_t>& tmp, uint64_t count,
                                   const void* dst, const void* src0, const void* src1 = nullptr) {
    const uint32_t need = math_tmp::min_bytes(which, sizeof(T));
    if (tmp.GetSize() < need)
        fail(ErrorKind::run_failed, api,
             "sharedTmpBuffer holds " + str(tmp.GetSize()) + " bytes, below the minimum of " + str(need) + " for " +
                 str(sizeof(T)) + "-byte elements (Get" + math_tmp::spec(which).name + "MaxMinTmpSize reports it as minValue)");
    check_ub_access(api, "sharedTmpBuffer", tmp.data(), need, uint64_t(tmp.extent()));
    const uint64_t bytes = count * sizeof(T);
    for (const void* p : {dst, src0, src1})
        if (p && overlaps(tmp.data(), tmp.GetSize(), p, bytes))
            fail(ErrorKind::run_failed, api,
                 "sharedTmpBuffer (" + describe_ub(tmp.data()) + ", " + str(tmp.GetSize()) +
                     " bytes) overlaps an operand; the documentation forbids it, the device would overwrite the operand");
}

template <class T>
ASCENDOPT_TWIN_FN void record_advanced(const char* api, uint64_t count, const void* dst, const void* src0 = nullptr,
                                       const void* src1 = nullptr) {
    account_vector(api, count * math_tmp::compute_bytes(sizeof(T)), dst, src0, src1);
}

// dst[i] = f(src[i]) for i < count, each computed in double and rounded once.
template <class T, class F>
ASCENDOPT_TWIN_FN void adv_unary(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                                 uint64_t count, F f) {
    require_count(count, dst, api, "destination");
    require_count(count, src, api, "source");
    T* d = dst.data();
    const T* s = src.data();
    for (uint64_t i = 0; i < count; ++i) d[i] = round_once<T>(f(widen(s[i])));
    record_advanced<T>(api, count, d, s);
}

// dst[i] = f(a[i], b[i]) for i < count.
template <class T, class F>
ASCENDOPT_TWIN_FN void adv_binary(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& a,
                                  const AscendC::LocalTensor<T>& b, uint64_t count, F f) {
    require_count(count, dst, api, "destination");
    require_count(count, a, api, "first source");
    require_count(count, b, api, "second source");
    for (uint64_t i = 0; i < count; ++i) dst.data()[i] = f(a.data()[i], b.data()[i]);
    record_advanced<T>(api, count, dst.data(), a.data(), b.data());
}

template <class T>
ASCENDOPT_TWIN_FN void require_float(const char* api) {
    static_assert(std::is_same_v<T, Half> || std::is_same_v<T, float> || std::is_same_v<T, BFloat16>,
                  "this advanced math API takes half or float operands");
    (void)api;
}

}  // namespace ascendopt_twin::detail

// The four forms of a unary advanced API; EXPR maps `a` (double).
#define ASCENDOPT_TWIN_MATH_UNARY(NAME, EXPR)                                                                             \
    template <class T, bool isReuseSource = false>                                                                        \
    ASCENDOPT_TWIN_FN void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                          \
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {                   \
        ascendopt_twin::detail::require_float<T>(#NAME);                                                                  \
        ascendopt_twin::detail::require_tmp<T>(#NAME, ascendopt_twin::math_tmp::Api::NAME, sharedTmpBuffer, calCount,     \
                                               dstTensor.data(), srcTensor.data());                                       \
        ascendopt_twin::detail::adv_unary(#NAME, dstTensor, srcTensor, calCount, [](double a) ASCENDOPT_TWIN_FN { return EXPR; }); \
    }                                                                                                                     \
    template <class T, bool isReuseSource = false>                                                                        \
    ASCENDOPT_TWIN_FN void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                          \
                                const LocalTensor<uint8_t>& sharedTmpBuffer) {                                            \
        NAME<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize());                               \
    }                                                                                                                     \
    template <class T, bool isReuseSource = false>                                                                        \
    ASCENDOPT_TWIN_FN void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount) { \
        ascendopt_twin::detail::require_float<T>(#NAME);                                                                  \
        ascendopt_twin::detail::adv_unary(#NAME, dstTensor, srcTensor, calCount, [](double a) ASCENDOPT_TWIN_FN { return EXPR; }); \
    }                                                                                                                     \
    template <class T, bool isReuseSource = false>                                                                        \
    ASCENDOPT_TWIN_FN void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {                        \
        NAME<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize());                                                \
    }

namespace AscendC {

ASCENDOPT_TWIN_MATH_UNARY(Asin, ascendopt_twin::math::asin(a))
ASCENDOPT_TWIN_MATH_UNARY(Acos, ascendopt_twin::math::acos(a))
ASCENDOPT_TWIN_MATH_UNARY(Atan, ascendopt_twin::math::atan(a))
ASCENDOPT_TWIN_MATH_UNARY(Sin, ascendopt_twin::math::sin(a))
ASCENDOPT_TWIN_MATH_UNARY(Cos, ascendopt_twin::math::cos(a))
ASCENDOPT_TWIN_MATH_UNARY(Tan, ascendopt_twin::math::tan(a))
ASCENDOPT_TWIN_MATH_UNARY(Tanh, ascendopt_twin::math::tanh(a))
ASCENDOPT_TWIN_MATH_UNARY(Sinh, ascendopt_twin::math::sinh(a))
ASCENDOPT_TWIN_MATH_UNARY(Cosh, ascendopt_twin::math::cosh(a))
ASCENDOPT_TWIN_MATH_UNARY(Asinh, ascendopt_twin::advmath::asinh(a))
ASCENDOPT_TWIN_MATH_UNARY(Acosh, ascendopt_twin::advmath::acosh(a))
ASCENDOPT_TWIN_MATH_UNARY(Atanh, ascendopt_twin::advmath::atanh(a))
ASCENDOPT_TWIN_MATH_UNARY(Erf, ascendopt_twin::math::erf(a))
ASCENDOPT_TWIN_MATH_UNARY(Erfc, ascendopt_twin::advmath::erfc(a))
ASCENDOPT_TWIN_MATH_UNARY(Sigmoid, ascendopt_twin::advmath::sigmoid(a))
ASCENDOPT_TWIN_MATH_UNARY(Log2, ascendopt_twin::advmath::log2(a))
// Round: to the nearest integer, ties to even (the vector unit's CAST_RINT; docs/twin.md).
ASCENDOPT_TWIN_MATH_UNARY(Round, ascendopt_twin::math::nearbyint(a))
ASCENDOPT_TWIN_MATH_UNARY(Sign, ascendopt_twin::advmath::sign(a))
ASCENDOPT_TWIN_MATH_UNARY(Floor, ascendopt_twin::math::floor(a))
ASCENDOPT_TWIN_MATH_UNARY(Ceil, ascendopt_twin::math::ceil(a))
ASCENDOPT_TWIN_MATH_UNARY(Trunc, ascendopt_twin::math::trunc(a))
ASCENDOPT_TWIN_MATH_UNARY(Frac, a - ascendopt_twin::math::trunc(a))

// Log (base e) and Log10 have no temporary buffer; calCount or the whole source.
template <class T, bool isReuseSource = false>
ASCENDOPT_TWIN_FN void Log(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, uint32_t calCount) {
    ascendopt_twin::detail::require_float<T>("Log");
    ascendopt_twin::detail::adv_unary("Log", dstTensor, srcTensor, calCount, [](double a) ASCENDOPT_TWIN_FN { return ascendopt_twin::math::log(a); });
}
template <class T, bool isReuseSource = false>
ASCENDOPT_TWIN_FN void Log(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {
    Log<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize());
}
template <class T, bool isReuseSource = false>
ASCENDOPT_TWIN_FN void Log10(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, uint32_t calCount) {
    ascendopt_twin::detail::require_float<T>("Log10");
    ascendopt_twin::detail::adv_unary("Log10", dstTensor, srcTensor, calCount,
                                      [](double a) ASCENDOPT_TWIN_FN { return ascendopt_twin::advmath::log10(a); });
}
template <class T, bool isReuseSource = false>
ASCENDOPT_TWIN_FN void Log10(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {
    Log10<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize());
}

// Exp with a Taylor expansion of the fractional part to `taylorExpandLevel` terms on the
// device; the twin computes exp exactly whatever the level (its results are at least as
// accurate as the device's). taylorExpandLevel has no default, so Exp<float>(d, s, n) stays
// the basic Exp.
template <class T, uint8_t taylorExpandLevel, bool isReuseSource = false>
ASCENDOPT_TWIN_FN void Exp(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                           const uint32_t calCount) {
    ascendopt_twin::detail::require_float<T>("Exp");
    ascendopt_twin::detail::require_tmp<T>("Exp", ascendopt_twin::math_tmp::Api::Exp, sharedTmpBuffer, calCount, dstTensor.data(),
                                           srcTensor.data());
    ascendopt_twin::detail::adv_unary(taylorExpandLevel ? "ExpTaylor" : "Exp", dstTensor, srcTensor, calCount,
                                      [](double a) ASCENDOPT_TWIN_FN { return ascendopt_twin::math::exp(a); });
}
template <class T, uint8_t taylorExpandLevel, bool isReuseSource = false>
ASCENDOPT_TWIN_FN void Exp(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount) {
    ascendopt_twin::detail::require_float<T>("Exp");
    ascendopt_twin::detail::adv_unary(taylorExpandLevel ? "ExpTaylor" : "Exp", dstTensor, srcTensor, calCount,
                                      [](double a) ASCENDOPT_TWIN_FN { return ascendopt_twin::math::exp(a); });
}

}  // namespace AscendC

namespace ascendopt_twin::detail {

// Power on one element pair: floating types through pow in double, int32 exactly.
template <class T>
ASCENDOPT_TWIN_FN T power_of(T base, T exponent) {
    if constexpr (std::is_integral_v<T>) return T(advmath::ipow(int64_t(base), int64_t(exponent)));
    else return round_once<T>(advmath::pow(widen(base), widen(exponent)));
}

template <class T>
ASCENDOPT_TWIN_FN void require_power_type() {
    static_assert(std::is_same_v<T, Half> || std::is_same_v<T, float> || std::is_same_v<T, int32_t> || std::is_same_v<T, BFloat16>,
                  "Power takes half, float or int32_t operands");
}

}  // namespace ascendopt_twin::detail

namespace AscendC {

// Power(dst, tensor, tensor), Power(dst, tensor, scalar), Power(dst, scalar, tensor), each
// with or without a sharedTmpBuffer, over calCount elements or the whole tensor operand.
template <class T, bool isReuseSource = false>
ASCENDOPT_TWIN_FN void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                             const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount) {
    ascendopt_twin::detail::require_power_type<T>();
    ascendopt_twin::detail::require_tmp<T>("Power", ascendopt_twin::math_tmp::Api::Power, sharedTmpBuffer, calCount, dstTensor.data(),
                                           src0Tensor.data(), src1Tensor.data());
    ascendopt_twin::detail::adv_binary("Power", dstTensor, src0Tensor, src1Tensor, calCount,
                                       [](T x, T y) ASCENDOPT_TWIN_FN { return ascendopt_twin::detail::power_of<T>(x, y); });
}
template <class T, bool isReuseSource = false>
ASCENDOPT_TWIN_FN void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                             const LocalTensor<uint8_t>& sharedTmpBuffer) {
    Power<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer, src0Tensor.GetSize());
}
template <class T, bool isReuseSource = false>
ASCENDOPT_TWIN_FN void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                             uint32_t calCount) {
    ascendopt_twin::detail::require_power_type<T>();
    ascendopt_twin::detail::adv_binary("Power", dstTensor, src0Tensor, src1Tensor, calCount,
                                       [](T x, T y) ASCENDOPT_TWIN_FN { return ascendopt_twin::detail::power_of<T>(x, y); });
}
template <class T, bool isReuseSource = false>
ASCENDOPT_TWIN_FN void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor) {
    Power<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, src0Tensor.GetSize());
}

template <class T, bool isReuseSource = false>
ASCENDOPT_TWIN_FN void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const ascendopt_twin::detail::same_t<T>& src1Scalar,
                             const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount) {
    ascendopt_twin::detail::require_power_type<T>();
    ascendopt_twin::detail::require_tmp<T>("Power", ascendopt_twin::math_tmp::Api::Power, sharedTmpBuffer, calCount, dstTensor.data(),
                                           src0Tensor.data());
    const T e = src1Scalar;
    ascendopt_twin::detail::adv_binary("Power", dstTensor, src0Tensor, src0Tensor, calCount,
                                       [e](T x, T) ASCENDOPT_TWIN_FN { return ascendopt_twin::detail::power_of<T>(x, e); });
}
template <class T, bool isReuseSource = false>
ASCENDOPT_TWIN_FN void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const ascendopt_twin::detail::same_t<T>& src1Scalar,
                             const LocalTensor<uint8_t>& sharedTmpBuffer) {
    Power<T, isReuseSource>(dstTensor, src0Tensor, src1Scalar, sharedTmpBuffer, src0Tensor.GetSize());
}
template <class T, bool isReuseSource = false>
ASCENDOPT_TWIN_FN void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const ascendopt_twin::detail::same_t<T>& src1Scalar,
                             uint32_t calCount) {
    ascendopt_twin::detail::require_power_type<T>();
    const T e = src1Scalar;
    ascendopt_twin::detail::adv_binary("Power", dstTensor, src0Tensor, src0Tensor, calCount,
                                       [e](T x, T) ASCENDOPT_TWIN_FN { return ascendopt_twin::detail::power_of<T>(x, e); });
}
template <class T, bool isReuseSource = false>
ASCENDOPT_TWIN_FN void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const ascendopt_twin::detail::same_t<T>& src1Scalar) {
    Power<T, isReuseSource>(dstTensor, src0Tensor, src1Scalar, src0Tensor.GetSize());
}

template <class T, bool isReuseSource = false>
ASCENDOPT_TWIN_FN void Power(const LocalTensor<T>& dstTensor, const ascendopt_twin::detail::same_t<T>& src0Scalar, const LocalTensor<T>& src1Tensor,
                             const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount) {
    ascendopt_twin::detail::require_power_type<T>();
    ascendopt_twin::detail::require_tmp<T>("Power", ascendopt_twin::math_tmp::Api::Power, sharedTmpBuffer, calCount, dstTensor.data(),
                                           src1Tensor.data());
    const T b = src0Scalar;
    ascendopt_twin::detail::adv_binary("Power", dstTensor, src1Tensor, src1Tensor, calCount,
                                       [b](T y, T) ASCENDOPT_TWIN_FN { return ascendopt_twin::detail::power_of<T>(b, y); });
}
template <class T, bool isReuseSource = false>
ASCENDOPT_TWIN_FN void Power(const LocalTensor<T>& dstTensor, const ascendopt_twin::detail::same_t<T>& src0Scalar, const LocalTensor<T>& src1Tensor,
                             const LocalTensor<uint8_t>& sharedTmpBuffer) {
    Power<T, isReuseSource>(dstTensor, src0Scalar, src1Tensor, sharedTmpBuffer, src1Tensor.GetSize());
}
template <class T, bool isReuseSource = false>
ASCENDOPT_TWIN_FN void Power(const LocalTensor<T>& dstTensor, const ascendopt_twin::detail::same_t<T>& src0Scalar, const LocalTensor<T>& src1Tensor,
                             uint32_t calCount) {
    ascendopt_twin::detail::require_power_type<T>();
    const T b = src0Scalar;
    ascendopt_twin::detail::adv_binary("Power", dstTensor, src1Tensor, src1Tensor, calCount,
                                       [b](T y, T) ASCENDOPT_TWIN_FN { return ascendopt_twin::detail::power_of<T>(b, y); });
}
template <class T, bool isReuseSource = false>
ASCENDOPT_TWIN_FN void Power(const LocalTensor<T>& dstTensor, const ascendopt_twin::detail::same_t<T>& src0Scalar, const LocalTensor<T>& src1Tensor) {
    Power<T, isReuseSource>(dstTensor, src0Scalar, src1Tensor, src1Tensor.GetSize());
}

// Xor of two int16/uint16 tensors, with or without a sharedTmpBuffer.
template <class T, bool isReuseSource = false>
ASCENDOPT_TWIN_FN void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                           const uint32_t calCount) {
    static_assert(std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t>, "Xor takes int16_t or uint16_t operands");
    ascendopt_twin::detail::adv_binary("Xor", dstTensor, src0Tensor, src1Tensor, calCount,
                                       [](T x, T y) ASCENDOPT_TWIN_FN { return T(x ^ y); });
}
template <class T, bool isReuseSource = false>
ASCENDOPT_TWIN_FN void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                           const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
    ascendopt_twin::detail::require_tmp<T>("Xor", ascendopt_twin::math_tmp::Api::Xor, sharedTmpBuffer, calCount, dstTensor.data(),
                                           src0Tensor.data(), src1Tensor.data());
    Xor<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, calCount);
}
template <class T, bool isReuseSource = false>
ASCENDOPT_TWIN_FN void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                           const LocalTensor<uint8_t>& sharedTmpBuffer) {
    Xor<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer, src0Tensor.GetSize());
}
template <class T, bool isReuseSource = false>
ASCENDOPT_TWIN_FN void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor) {
    Xor<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, src0Tensor.GetSize());
}

// Axpy of the math library: Muls into the temporary, then Add, each rounded to T (two
// roundings, unlike the basic Axpy's one). Source and destination share their type.
template <class T, class U, bool isReuseSource = false>
ASCENDOPT_TWIN_FN void Axpy(const LocalTensor<T>& dstTensor, const LocalTensor<U>& srcTensor, const U scalarValue,
                            const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
    static_assert(std::is_same_v<T, U> && (std::is_same_v<T, half> || std::is_same_v<T, float>),
                  "the math library's Axpy takes half or float operands of one type");
    ascendopt_twin::detail::require_tmp<T>("Axpy", ascendopt_twin::math_tmp::Api::Axpy, sharedTmpBuffer, calCount, dstTensor.data(),
                                           srcTensor.data());
    const float s = static_cast<float>(scalarValue);
    ascendopt_twin::detail::adv_binary("Axpy", dstTensor, dstTensor, srcTensor, calCount, [s](T d, T x) ASCENDOPT_TWIN_FN {
        const T product = static_cast<T>(static_cast<float>(x) * s);
        return static_cast<T>(static_cast<float>(d) + static_cast<float>(product));
    });
}

}  // namespace AscendC
