// ShapeInfo and DataFormat, as the API reference documents them: a tensor's shape as kernels
// pass it to APIs that take one. The twin's APIs take their sizes from their own arguments;
// the struct is here for kernels that build one.
#pragma once

#include <cstdint>

#include "ascendopt_twin/attrs.h"

namespace AscendC {

enum class DataFormat : uint8_t { ND = 0, NZ, NCHW, NC1HWC0, NHWC, NCDHW, NDC1HWC0, FRACTAL_Z_3D };

constexpr int32_t K_MAX_DIM = 8;

struct ShapeInfo {
    ASCENDOPT_TWIN_FN ShapeInfo() {}
    ASCENDOPT_TWIN_FN ShapeInfo(uint8_t dims, const uint32_t in_shape[], uint8_t original_dims, const uint32_t in_original[], DataFormat format)
        : shapeDim(clamp(dims)), originalShapeDim(clamp(original_dims)), dataFormat(format) {
        for (int i = 0; i < shapeDim; ++i) shape[i] = in_shape[i];
        for (int i = 0; i < originalShapeDim; ++i) originalShape[i] = in_original[i];
    }
    ASCENDOPT_TWIN_FN ShapeInfo(uint8_t dims, const uint32_t in_shape[], DataFormat format) : ShapeInfo(dims, in_shape, dims, in_shape, format) {}
    ASCENDOPT_TWIN_FN ShapeInfo(uint8_t dims, const uint32_t in_shape[]) : ShapeInfo(dims, in_shape, dims, in_shape, DataFormat::ND) {}

    uint8_t shapeDim = 0;
    uint8_t originalShapeDim = 0;
    uint32_t shape[K_MAX_DIM] = {};
    uint32_t originalShape[K_MAX_DIM] = {};
    DataFormat dataFormat = DataFormat::ND;

private:
    // More than K_MAX_DIM dimensions: the device asserts in its debug build; the twin keeps the first K_MAX_DIM.
    ASCENDOPT_TWIN_FN static uint8_t clamp(uint8_t dims) { return dims > K_MAX_DIM ? uint8_t(K_MAX_DIM) : dims; }
};

// The product of the shape's dimensions.
ASCENDOPT_TWIN_FN inline int GetShapeSize(const ShapeInfo& info) {
    int size = 1;
    for (int i = 0; i < info.shapeDim; ++i) size *= int(info.shape[i]);
    return size;
}

}  // namespace AscendC
