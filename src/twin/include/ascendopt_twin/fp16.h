// IEEE binary16 (`half`) and bfloat16 (`bfloat16_t`) storage types for the Ascend C twin.
//
// Contract: both types are 2-byte trivially copyable values. Conversion from float rounds
// to nearest, ties to even (the Cast API's CAST_RINT/CAST_NONE behaviour); NaN stays NaN,
// overflow goes to infinity, and binary16 subnormals are produced and read exactly.
// Arithmetic happens in float through the implicit conversions, and the result is
// rounded back when stored, which is how the vector unit treats 16-bit floats.
// Header-only and C++17 so that operator sources can include it unchanged; the conversions are
// constexpr, as the device compiler's are (`constexpr half ONE = 1.0f;` in cann-ops kernels).
#pragma once

#include "ascendopt_twin/attrs.h"

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace ascendopt_twin {

ASCENDOPT_TWIN_FN constexpr uint32_t float_bits(float f) { return __builtin_bit_cast(uint32_t, f); }

ASCENDOPT_TWIN_FN constexpr float bits_float(uint32_t x) { return __builtin_bit_cast(float, x); }

// float -> binary16, round to nearest even.
ASCENDOPT_TWIN_FN constexpr uint16_t f32_to_f16_bits(float f) {
    const uint32_t x = float_bits(f);
    const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
    const uint32_t a = x & 0x7fffffffu;
    if (a >= 0x7f800000u) {  // inf or NaN; NaN keeps a quiet payload
        return static_cast<uint16_t>(sign | 0x7c00u | (a > 0x7f800000u ? 0x0200u | ((a >> 13) & 0x3ffu) : 0u));
    }
    if (a >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // >= 65520 rounds to inf
    if (a < 0x38800000u) {  // below 2^-14: binary16 subnormal or zero
        if (a < 0x33000000u) return sign;  // <= 2^-25 rounds to zero (tie goes to even 0)
        const uint32_t exp = a >> 23;
        const uint32_t mant = (a & 0x7fffffu) | 0x800000u;
        const uint32_t shift = 126u - exp;
        uint32_t r = mant >> shift;
        const uint32_t rem = mant & ((1u << shift) - 1u);
        const uint32_t halfway = 1u << (shift - 1u);
        if (rem > halfway || (rem == halfway && (r & 1u))) ++r;
        return static_cast<uint16_t>(sign | r);
    }
    uint32_t h = (a >> 13) - (112u << 10);
    const uint32_t rem = a & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;
    return static_cast<uint16_t>(sign | h);
}

ASCENDOPT_TWIN_FN constexpr float f16_bits_to_f32(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    const uint32_t exp = (h >> 10) & 0x1fu;
    const uint32_t mant = h & 0x3ffu;
    if (exp == 0x1fu) return bits_float(sign | 0x7f800000u | (mant << 13));
    if (exp != 0) return bits_float(sign | ((exp + 112u) << 23) | (mant << 13));
    if (mant == 0) return bits_float(sign);
    // subnormal: value = mant * 2^-24, exact in float
    const float v = static_cast<float>(mant) * 5.9604644775390625e-8f;
    return sign ? -v : v;
}

// float -> bfloat16, round to nearest even.
ASCENDOPT_TWIN_FN constexpr uint16_t f32_to_bf16_bits(float f) {
    const uint32_t x = float_bits(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x0040u);
    const uint32_t rounded = x + 0x7fffu + ((x >> 16) & 1u);
    return static_cast<uint16_t>(rounded >> 16);
}

ASCENDOPT_TWIN_FN constexpr float bf16_bits_to_f32(uint16_t b) { return bits_float(static_cast<uint32_t>(b) << 16); }

// The 16-bit float types live in a namespace of their own, which holds nothing else: kernels
// pass half values around, and argument-dependent lookup must not carry a call of theirs into
// ascendopt_twin, where the twin's internal functions are (docs/sandbox.md).
namespace fp16 {

// One 16-bit float format; Codec supplies the bit conversions.
template <class Codec>
struct Float16Storage {
    uint16_t bits = 0;

    Float16Storage() = default;
    template <class U, class = std::enable_if_t<std::is_arithmetic_v<U>>>
    ASCENDOPT_TWIN_FN constexpr Float16Storage(U v) : bits(Codec::encode(static_cast<float>(v))) {}  // NOLINT: implicit by design
    // The other 16-bit format converts through float (half <-> bfloat16_t), as on the device.
    template <class Other, class = std::enable_if_t<!std::is_same_v<Other, Codec>>>
    ASCENDOPT_TWIN_FN constexpr Float16Storage(Float16Storage<Other> v)  // NOLINT: implicit by design
        : bits(Codec::encode(static_cast<float>(v))) {}

    ASCENDOPT_TWIN_FN constexpr operator float() const { return Codec::decode(bits); }  // NOLINT: implicit by design

    ASCENDOPT_TWIN_FN static constexpr Float16Storage from_bits(uint16_t b) {
        Float16Storage s;
        s.bits = b;
        return s;
    }

    Float16Storage& operator+=(float v) { return *this = Float16Storage(float(*this) + v); }
    Float16Storage& operator-=(float v) { return *this = Float16Storage(float(*this) - v); }
    Float16Storage& operator*=(float v) { return *this = Float16Storage(float(*this) * v); }
    Float16Storage& operator/=(float v) { return *this = Float16Storage(float(*this) / v); }
    ASCENDOPT_TWIN_FN constexpr Float16Storage operator-() const { return from_bits(static_cast<uint16_t>(bits ^ 0x8000u)); }
};

struct HalfCodec {
    ASCENDOPT_TWIN_FN static constexpr uint16_t encode(float f) { return f32_to_f16_bits(f); }
    ASCENDOPT_TWIN_FN static constexpr float decode(uint16_t b) { return f16_bits_to_f32(b); }
};

struct Bf16Codec {
    ASCENDOPT_TWIN_FN static constexpr uint16_t encode(float f) { return f32_to_bf16_bits(f); }
    ASCENDOPT_TWIN_FN static constexpr float decode(uint16_t b) { return bf16_bits_to_f32(b); }
};

}  // namespace fp16

using fp16::Bf16Codec;
using fp16::Float16Storage;
using fp16::HalfCodec;
using Half = fp16::Float16Storage<fp16::HalfCodec>;
using BFloat16 = fp16::Float16Storage<fp16::Bf16Codec>;

static_assert(sizeof(Half) == 2 && std::is_trivially_copyable_v<Half>, "half must be 2 plain bytes");
static_assert(float(Half(1.5f)) == 1.5f && float(BFloat16(-2.0f)) == -2.0f, "16-bit floats convert at compile time");

}  // namespace ascendopt_twin
