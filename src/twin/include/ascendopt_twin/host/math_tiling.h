// Host helpers for the temporary buffers of the advanced math APIs: Get<Name>MaxMinTmpSize and
// Get<Name>TmpBufferFactorSize for Asin ... Xor, GetPowerMaxMinTmpSize and
// GetPowerTmpBufferFactorSize. Their answers come from the table the kernel side checks
// against (ascendopt_twin/math_tmp.h), so a buffer of minValue bytes is always accepted and a
// smaller one always refused.
//
// The shapes are taken as any type with GetDimNum()/GetDim(i) (ge::Shape), so this header does
// not depend on which header defines ge::Shape.
#pragma once

#include <cstdint>
#include <string>

#include "ascendopt_twin/math_tmp.h"
#include "ascendopt_twin/runtime.h"

namespace ascendopt_twin::host_math {

template <class Shape>
uint64_t elements(const Shape& shape) {
    uint64_t n = 1;
    for (size_t i = 0; i < size_t(shape.GetDimNum()); ++i) n *= uint64_t(shape.GetDim(i) < 0 ? 0 : shape.GetDim(i));
    return n;
}

inline void require_type_size(const char* api, uint32_t typeSize) {
    if (typeSize != 2 && typeSize != 4)
        fail(ErrorKind::run_failed, api, "typeSize " + std::to_string(typeSize) + " is not 2 (half) or 4 (float, int32)");
}

template <class Shape>
void max_min(const char* api, math_tmp::Api which, const Shape& shape, uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue) {
    require_type_size(api, typeSize);
    const uint64_t most = math_tmp::max_bytes(which, typeSize, elements(shape));
    maxValue = most > UINT32_MAX ? UINT32_MAX : uint32_t(most);
    minValue = math_tmp::min_bytes(which, typeSize);
}

inline void factor(const char* api, math_tmp::Api which, uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
    require_type_size(api, typeSize);
    maxLiveNodeCount = math_tmp::live_node_count(which, typeSize);
    extraBuffer = 0;
}

}  // namespace ascendopt_twin::host_math

namespace AscendC {

#define ASCENDOPT_TWIN_MATH_HOST(NAME, NODES)                                                                          \
    template <class Shape>                                                                                             \
    void Get##NAME##MaxMinTmpSize(const Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,            \
                                  uint32_t& maxValue, uint32_t& minValue) {                                            \
        (void)isReuseSource;                                                                                           \
        ascendopt_twin::host_math::max_min("Get" #NAME "MaxMinTmpSize", ascendopt_twin::math_tmp::Api::NAME, srcShape, \
                                           typeSize, maxValue, minValue);                                              \
    }                                                                                                                  \
    inline void Get##NAME##TmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) { \
        ascendopt_twin::host_math::factor("Get" #NAME "TmpBufferFactorSize", ascendopt_twin::math_tmp::Api::NAME, typeSize, \
                                          maxLiveNodeCount, extraBuffer);                                              \
    }

ASCENDOPT_TWIN_MATH_TMP_APIS(ASCENDOPT_TWIN_MATH_HOST)
#undef ASCENDOPT_TWIN_MATH_HOST

// Power: the shapes tell which form (a one-element shape is the scalar operand); the twin's
// buffer is the same for all three forms and for int32.
template <class Shape>
void GetPowerMaxMinTmpSize(const Shape& srcShape1, const Shape& srcShape2, const bool typeIsInt, const uint32_t typeSize,
                           const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
    (void)typeIsInt;
    (void)isReuseSource;
    const Shape& larger = ascendopt_twin::host_math::elements(srcShape1) >= ascendopt_twin::host_math::elements(srcShape2) ? srcShape1 : srcShape2;
    ascendopt_twin::host_math::max_min("GetPowerMaxMinTmpSize", ascendopt_twin::math_tmp::Api::Power, larger, typeSize, maxValue, minValue);
}
inline void GetPowerTmpBufferFactorSize(const bool baseIsTensor, const bool expIsTensor, const bool typeIsInt, const uint32_t typeSize,
                                        uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
    (void)baseIsTensor;
    (void)expIsTensor;
    (void)typeIsInt;
    ascendopt_twin::host_math::factor("GetPowerTmpBufferFactorSize", ascendopt_twin::math_tmp::Api::Power, typeSize, maxLiveNodeCount,
                                      extraBuffer);
}

}  // namespace AscendC
