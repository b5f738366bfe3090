// What the advanced APIs (adv_softmax.h, adv_sort.h, adv_quant.h, adv_reduce.h, adv_select.h)
// share: reading elements as exact doubles and rounding once to the destination type, the
// checks of operands and temporary buffers, the temporary space an API takes when the kernel
// passes none ("the framework applies for it"), and their charge to the timing model.
//
// An advanced API is a sequence of vector instructions on the device. The twin computes its
// documented result directly (in double, rounded once per output element) and charges the
// timing model with an estimate of that sequence: one account_vector per instruction, of the
// basic kind it issues (Sub, Exp, WholeReduceMax, ...) over the bytes it covers. The estimates
// are listed in docs/timing-model.md, "Advanced APIs".
#pragma once

#include "ascendopt_twin/attrs.h"

#include <cstring>
#include <string>
#include <type_traits>

#include "ascendopt_twin/kernel/math.h"
#include "ascendopt_twin/kernel/pipe.h"
#include "ascendopt_twin/kernel/vec.h"

namespace ascendopt_twin::adv {

template <class T>
constexpr bool is_16bit_float = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

template <class T>
ASCENDOPT_TWIN_FN double load(const T& v) {
    if constexpr (is_16bit_float<T>) return double(float(v));
    else return static_cast<double>(v);
}

// Rounds `v` to float toward zero and marks inexactness in the last bit (round to odd), so that
// a second rounding to a 16-bit float is the single correct rounding of `v`.
ASCENDOPT_TWIN_FN inline float float_round_odd(double v) {
    float f = static_cast<float>(v);
    if (math::isnan(v) || double(f) == v) return f;
    if (math::isinf(f)) f = f > 0 ? 3.4028234663852886e38f : -3.4028234663852886e38f;
    if ((f > 0 && double(f) > v) || (f < 0 && double(f) < v)) {  // rounded away from zero: step back
        uint32_t b = float_bits(f);
        --b;
        f = bits_float(b);
    }
    return bits_float(float_bits(f) | 1u);
}

// `v` rounded once, to nearest even, to T (float, half, bfloat16_t).
template <class T>
ASCENDOPT_TWIN_FN T round_once(double v) {
    if constexpr (is_16bit_float<T>) return T(float_round_odd(v));
    else return static_cast<T>(v);
}

[[noreturn]] ASCENDOPT_TWIN_FN inline void fail_api(const char* api, const std::string& message) {
    fail(ErrorKind::run_failed, api, message);
}

ASCENDOPT_TWIN_FN inline std::string num(uint64_t v) { return std::to_string(v); }

// `count` elements from the start of `t`, checked against its UB buffer (check_ub_access).
template <class T>
ASCENDOPT_TWIN_FN void require(const char* api, const char* which, const AscendC::LocalTensor<T>& t, uint64_t count) {
    check_ub_access(api, which, t.data(), count * sizeof(T), uint64_t(t.extent()) * sizeof(T));
}

// The bytes an API works in of its temporary buffer. Like any operand: past the buffer but
// inside the UB it proceeds with a note (an error under --strict-ub), past the UB it faults.
template <class T>
ASCENDOPT_TWIN_FN void require_tmp(const char* api, const AscendC::LocalTensor<T>& tmp, uint64_t bytes) {
    check_ub_access(api, "temporary buffer", tmp.data(), bytes, uint64_t(tmp.extent()) * sizeof(T));
}

// The temporary space of an API called without a sharedTmpBuffer: the UB past the TPipe's last
// InitBuffer, up to the end of the UB (kernels "reserve" it by not handing it out).
ASCENDOPT_TWIN_FN inline AscendC::LocalTensor<uint8_t> framework_tmp() {
    const AscendC::TPipe* pipe = AscendC::GetTPipePtr();
    const uint32_t used = pipe ? detail::align32(pipe->used_bytes()) : 0u;
    const uint32_t free_bytes = used < ub_size() ? ub_size() - used : 0u;
    return AscendC::LocalTensor<uint8_t>(ub_base() + used, free_bytes, free_bytes);
}

// One vector instruction of kind `kind` over `bytes` (its widest operand), for the timing model.
ASCENDOPT_TWIN_FN inline void charge(const char* kind, uint64_t bytes, const void* dst, const void* src0 = nullptr,
                                     const void* src1 = nullptr) {
    account_vector(kind, bytes, dst, src0, src1);
}

// NaN-propagating maximum, as the comparisons of the reduction instructions see NaN (docs/twin.md).
ASCENDOPT_TWIN_FN inline double max_nan(double a, double b) {
    if (math::isnan(a) || math::isnan(b)) return a + b;
    return a > b ? a : b;
}

}  // namespace ascendopt_twin::adv
