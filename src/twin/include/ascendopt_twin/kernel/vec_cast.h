// Cast between vector dtypes with the seven RoundModes. Floating destinations round the
// exact source value with the requested mode (CAST_NONE and CAST_RINT: nearest even;
// CAST_ROUND: nearest, ties away from zero; CAST_ODD: round to odd); integer destinations
// round then saturate to the destination range, NaN becoming 0.
#pragma once

#include "ascendopt_twin/attrs.h"

#include <cmath>
#include <limits>

#include "ascendopt_twin/kernel/math.h"
#include "ascendopt_twin/kernel/vec.h"

namespace ascendopt_twin::detail {

template <class F> struct FloatBits;
template <> struct FloatBits<Half> {
    using U = uint16_t;
    ASCENDOPT_TWIN_FN static U bits(Half h) { return h.bits; }
    ASCENDOPT_TWIN_FN static Half make(U b) { return Half::from_bits(b); }
    ASCENDOPT_TWIN_FN static Half nearest(double v) { return Half(static_cast<float>(v)); }  // float holds every value we cast exactly
};
template <> struct FloatBits<BFloat16> {
    using U = uint16_t;
    ASCENDOPT_TWIN_FN static U bits(BFloat16 h) { return h.bits; }
    ASCENDOPT_TWIN_FN static BFloat16 make(U b) { return BFloat16::from_bits(b); }
    ASCENDOPT_TWIN_FN static BFloat16 nearest(double v) { return BFloat16(static_cast<float>(v)); }
};
template <> struct FloatBits<float> {
    using U = uint32_t;
    ASCENDOPT_TWIN_FN static U bits(float f) { return float_bits(f); }
    ASCENDOPT_TWIN_FN static float make(U b) { return bits_float(b); }
    ASCENDOPT_TWIN_FN static float nearest(double v) { return static_cast<float>(v); }
};

// Next representable value toward +inf (up) or -inf, on a sign-magnitude bit pattern.
template <class F>
ASCENDOPT_TWIN_FN F step(F x, bool up) {
    using B = FloatBits<F>;
    using U = typename B::U;
    const U sign = U(U(1) << (sizeof(U) * 8 - 1));
    U b = B::bits(x);
    if ((b & ~sign) == 0) return B::make(up ? U(1) : U(sign | 1));  // +-0
    const bool negative = (b & sign) != 0;
    b = (up != negative) ? U(b + 1) : U(b - 1);
    return B::make(b);
}

template <class F>
ASCENDOPT_TWIN_FN F round_float(double v, AscendC::RoundMode mode) {
    using AscendC::RoundMode;
    const F r = FloatBits<F>::nearest(v);
    const double rd = double(float(r));
    if (ascendopt_twin::math::isnan(v) || rd == v || ascendopt_twin::math::isinf(rd)) return r;
    if (mode == RoundMode::CAST_NONE || mode == RoundMode::CAST_RINT) return r;
    const F lo = rd < v ? r : step(r, false);
    const F hi = rd > v ? r : step(r, true);
    switch (mode) {
        case RoundMode::CAST_FLOOR: return lo;
        case RoundMode::CAST_CEIL: return hi;
        case RoundMode::CAST_TRUNC: return v > 0 ? lo : hi;
        case RoundMode::CAST_ROUND: {
            const double dl = v - double(float(lo)), dh = double(float(hi)) - v;
            if (dl != dh) return dl < dh ? lo : hi;
            return v > 0 ? hi : lo;  // tie: away from zero
        }
        case RoundMode::CAST_ODD: return (FloatBits<F>::bits(lo) & 1u) ? lo : hi;
        default: return r;
    }
}

ASCENDOPT_TWIN_FN inline double round_integer(double v, AscendC::RoundMode mode) {
    using AscendC::RoundMode;
    switch (mode) {
        case RoundMode::CAST_FLOOR: return ascendopt_twin::math::floor(v);
        case RoundMode::CAST_CEIL: return ascendopt_twin::math::ceil(v);
        case RoundMode::CAST_ROUND: return ascendopt_twin::math::round(v);
        case RoundMode::CAST_TRUNC: return ascendopt_twin::math::trunc(v);
        default: return ascendopt_twin::math::nearbyint(v);  // CAST_NONE, CAST_RINT, CAST_ODD: nearest even
    }
}

// Converts one element to D. `same_float` says the source is a float type of D's own format:
// the hardware then rounds to an integral value and keeps the type (vconv f32->f32 with a
// rounding mode is "round to integer"); CAST_NONE keeps the value.
// int4b_t packs two elements in a byte; the twin's tensors hold whole bytes per element, so a
// cast to or from it would lay the data out wrongly. Kernels that name the int4 path compile;
// reaching it is a run_failed error.
[[noreturn]] ASCENDOPT_TWIN_FN inline void int4_not_modelled(const char* api) {
    fail(ErrorKind::run_failed, api, "int4b_t (two 4-bit elements per byte) is not modelled by the twin");
}

}  // namespace ascendopt_twin::detail

// The raw int4 -> half conversion (weight-quantized matmuls' int4 path): int4 is not modelled.
template <class... Args>
ASCENDOPT_TWIN_FN void vconv_s42f16(Args&&...) {
    ascendopt_twin::detail::int4_not_modelled("vconv_s42f16");
}

namespace ascendopt_twin::detail {

template <class D>
ASCENDOPT_TWIN_FN D cast_value(double v, AscendC::RoundMode mode, bool same_float = false) {
    if constexpr (std::is_same_v<D, int4b_t>) {
        int4_not_modelled("Cast");
    } else if constexpr (std::is_same_v<D, Half> || std::is_same_v<D, BFloat16> || std::is_same_v<D, float>) {
        if (same_float && mode != AscendC::RoundMode::CAST_NONE && mode != AscendC::RoundMode::CAST_ODD &&
            !ascendopt_twin::math::isnan(v) && !ascendopt_twin::math::isinf(v))
            return static_cast<D>(float(round_integer(v, mode)));
        return round_float<D>(v, mode);
    } else if constexpr (std::is_same_v<D, bool>) {
        return v != 0;
    } else {
        if (ascendopt_twin::math::isnan(v)) return D(0);
        const double r = round_integer(v, mode);
        if (r <= double(std::numeric_limits<D>::min())) return std::numeric_limits<D>::min();
        if (r >= double(std::numeric_limits<D>::max())) return std::numeric_limits<D>::max();
        return static_cast<D>(r);
    }
}

template <class S>
ASCENDOPT_TWIN_FN double to_double(S v) {
    if constexpr (std::is_same_v<S, int4b_t>) int4_not_modelled("Cast");
    else if constexpr (std::is_same_v<S, Half> || std::is_same_v<S, BFloat16>) return double(float(v));
    else return static_cast<double>(v);
}

}  // namespace ascendopt_twin::detail

namespace AscendC {

template <class D, class S>
ASCENDOPT_TWIN_FN void Cast(const LocalTensor<D>& dst, const LocalTensor<S>& src, const RoundMode& mode, const uint32_t count) {
    using namespace ascendopt_twin::detail;
    require_count(count, dst, "Cast", "destination");
    require_count(count, src, "Cast", "source");
    constexpr bool same = std::is_same_v<D, S> && !std::is_integral_v<D>;
    // Repeat by repeat, each read whole before it is written, as the vector unit does: that is
    // what an in-place Cast between types of different widths gives on the device.
    constexpr uint32_t lanes = 256 / std::max(sizeof(D), sizeof(S));
    S staged[lanes];
    for (uint32_t first = 0; first < count; first += lanes) {
        const uint32_t n = std::min(lanes, count - first);
        ascendopt_twin::raw_copy(staged, src.data() + first, n * sizeof(S));
        for (uint32_t i = 0; i < n; ++i) dst.data()[first + i] = cast_value<D>(to_double(staged[i]), mode, same);
    }
    record_vector<S>("Cast", std::max<uint64_t>(count, uint64_t(count) * sizeof(D) / sizeof(S)), dst.data(), src.data());
}

// Mask form: lanes follow the wider of the two types, 256 bytes of it per repeat.
template <class D, class S, bool isSetMask = true>
ASCENDOPT_TWIN_FN void Cast(const LocalTensor<D>& dst, const LocalTensor<S>& src, const RoundMode& mode, uint64_t mask,
          const uint8_t repeatTimes, const UnaryRepeatParams& p) {
    using namespace ascendopt_twin::detail;
    using W = std::conditional_t<(sizeof(D) > sizeof(S)), D, S>;
    const Lanes l = lanes_from_count<W>(mask, repeatTimes, isSetMask, "Cast");
    require_footprint<D>(l, p.dstBlkStride, p.dstRepStride, dst, "Cast", "destination");
    require_footprint<S>(l, p.srcBlkStride, p.srcRepStride, src, "Cast", "source");
    for (uint32_t r = 0; r < l.repeats; ++r)
        for (uint32_t lane = 0; lane < l.lanes_per_repeat; ++lane)
            if (l.active(r, lane))
                dst.data()[lane_index<D>(r, lane, p.dstBlkStride, p.dstRepStride)] = cast_value<D>(
                    to_double(src.data()[lane_index<S>(r, lane, p.srcBlkStride, p.srcRepStride)]), mode,
                    std::is_same_v<D, S> && !std::is_integral_v<D>);
    record_vector<W>("Cast", uint64_t(l.repeats) * l.lanes_per_repeat, dst.data(), src.data());
}

// One scalar converted as Cast converts each element (the same rounding modes and saturation);
// scalar code on the device, charged as such.
template <typename srcT, typename dstT, RoundMode roundMode>
ASCENDOPT_TWIN_FN dstT ScalarCast(srcT valueIn) {
    return ascendopt_twin::detail::cast_value<dstT>(ascendopt_twin::detail::to_double(valueIn), roundMode);
}

}  // namespace AscendC
