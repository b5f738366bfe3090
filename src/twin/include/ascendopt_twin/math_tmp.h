// Temporary-buffer sizes of the advanced math APIs (Asin, Sigmoid, Power, ...), shared by the
// kernel side (adv_math.h checks a sharedTmpBuffer against the minimum) and the host side
// (host/math_tiling.h answers Get<Name>MaxMinTmpSize and Get<Name>TmpBufferFactorSize), so
// that the two always agree.
//
// The documentation publishes the host functions, not their formulas; the twin's model is:
// an API keeps `nodes` intermediate vectors alive, each one element wide per source element in
// the compute type (float for 16-bit sources, which the device widens before computing). So
//   bytes for n elements = nodes * n * compute bytes,
//   minimum              = nodes * 256 (one repeat of each intermediate),
//   maximum              = the bytes for the whole source, at least the minimum,
//   factor               = maxLiveNodeCount nodes * compute bytes / source bytes, extraBuf 0.
// `nodes` per API is our estimate (docs/twin.md, "Advanced math"); 0 means no buffer is needed.
// Header-only and free of kernel types: host code includes it too.
#pragma once

#include <cstdint>

namespace ascendopt_twin::math_tmp {

struct Spec {
    const char* name;
    uint32_t nodes;  // live intermediates per element, in the compute type
};

// One entry per advanced API with a temporary buffer; the host helpers are spelled from it.
#define ASCENDOPT_TWIN_MATH_TMP_APIS(X) \
    X(Asin, 4)                          \
    X(Acos, 4)                          \
    X(Atan, 5)                          \
    X(Sin, 3)                           \
    X(Cos, 3)                           \
    X(Tan, 4)                           \
    X(Tanh, 2)                          \
    X(Sinh, 2)                          \
    X(Cosh, 2)                          \
    X(Asinh, 2)                         \
    X(Acosh, 2)                         \
    X(Atanh, 2)                         \
    X(Erf, 3)                           \
    X(Erfc, 6)                          \
    X(Exp, 3)                           \
    X(Log2, 1)                          \
    X(Sigmoid, 1)                       \
    X(Round, 1)                         \
    X(Sign, 2)                          \
    X(Frac, 1)                          \
    X(Floor, 1)                         \
    X(Ceil, 1)                          \
    X(Trunc, 1)                         \
    X(Xor, 1)                           \
    X(Axpy, 1)                          \
    X(Power, 4)

enum class Api : uint8_t {
#define ASCENDOPT_TWIN_MATH_TMP_ENUM(NAME, NODES) NAME,
    ASCENDOPT_TWIN_MATH_TMP_APIS(ASCENDOPT_TWIN_MATH_TMP_ENUM)
#undef ASCENDOPT_TWIN_MATH_TMP_ENUM
};

inline constexpr Spec k_specs[] = {
#define ASCENDOPT_TWIN_MATH_TMP_SPEC(NAME, NODES) {#NAME, NODES},
    ASCENDOPT_TWIN_MATH_TMP_APIS(ASCENDOPT_TWIN_MATH_TMP_SPEC)
#undef ASCENDOPT_TWIN_MATH_TMP_SPEC
};

constexpr uint32_t k_repeat_bytes = 256;

constexpr const Spec& spec(Api api) { return k_specs[static_cast<int>(api)]; }

// Bytes one intermediate element takes: 16-bit (and 8-bit) sources compute in float.
constexpr uint32_t compute_bytes(uint32_t type_size) { return type_size < 4 ? 4u : type_size; }

// The smallest sharedTmpBuffer the API accepts (bytes).
constexpr uint32_t min_bytes(Api api, uint32_t type_size) {
    (void)type_size;
    return spec(api).nodes * k_repeat_bytes;
}

// The buffer the API would use to do `elements` at once (bytes), never below the minimum.
constexpr uint64_t max_bytes(Api api, uint32_t type_size, uint64_t elements) {
    const uint64_t whole = uint64_t(spec(api).nodes) * compute_bytes(type_size) * ((elements + 63) / 64 * 64);
    const uint64_t least = min_bytes(api, type_size);
    return whole > least ? whole : least;
}

// maxLiveNodeCount as Get<Name>TmpBufferFactorSize reports it: buffer bytes per source byte.
constexpr uint32_t live_node_count(Api api, uint32_t type_size) {
    return type_size == 0 ? 0 : spec(api).nodes * compute_bytes(type_size) / type_size;
}

}  // namespace ascendopt_twin::math_tmp
