// Host tiling helpers of the advanced APIs (reached from tiling/tiling_api.h): the temporary-
// space queries (Get...MaxMinTmpSize, Get...Min/MaxTmpSize) and the tiling functions that fill
// a SoftMaxTiling. Values are those the Atlas A2 tiling library returns (the Atlas inference
// series, 310P, where the sort layout differs); the formulas are stated in
// ascendopt_twin/kernel/adv_softmax_tiling.h and docs/twin.md, "Advanced APIs".
//
// Shapes: every function that takes a shape accepts any type with GetDimNum() and GetDim(i)
// (ge::Shape, gert::Shape, AscendC::TensorShape); [d0, ..., dn] is read as [m, k] with k the
// last axis and m the product of the others. Arguments the library rejects (an empty shape, an
// element size other than 2 or 4) end the tiling function with a run_failed error naming it.
#pragma once

#include "ascendopt_twin/attrs.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "ascendopt_twin/host/ge_types.h"
#include "ascendopt_twin/host/platform.h"
#include "ascendopt_twin/kernel/adv_softmax_tiling.h"
#include "ascendopt_twin/runtime.h"

namespace ascendopt_twin::host_adv {

struct MK {
    uint32_t m = 0;
    uint32_t k = 0;
};

[[noreturn]] inline void reject(const char* api, const std::string& message) { fail(ErrorKind::run_failed, api, message); }

template <class Shape>
MK last_axis(const char* api, const Shape& shape) {
    const size_t n = shape.GetDimNum();
    if (n == 0) reject(api, "the source shape has no dimensions");
    uint64_t m = 1;
    for (size_t i = 0; i + 1 < n; ++i) m *= uint64_t(shape.GetDim(i));
    const int64_t k = shape.GetDim(n - 1);
    if (m == 0 || k <= 0) reject(api, "the source shape is empty (m " + std::to_string(m) + ", k " + std::to_string(k) + ")");
    return {static_cast<uint32_t>(m), static_cast<uint32_t>(k)};
}

template <class Shape>
uint64_t elements(const Shape& shape) {
    uint64_t n = 1;
    for (size_t i = 0; i < shape.GetDimNum(); ++i) n *= uint64_t(shape.GetDim(i));
    return n;
}

inline void require_size(const char* api, const char* what, uint32_t size) {
    if (size != 2 && size != 4) reject(api, std::string(what) + " is " + std::to_string(size) + ": half (2) or float (4) only");
}

// Temporary floats of the SoftmaxFlashV2 minimum and maximum (A2).
inline uint32_t flash_v2_floats(uint32_t m, uint32_t k, uint32_t size1, uint32_t size2, bool basic, bool output_brc, bool minimum) {
    using namespace ascendopt_twin::softmax;
    const bool bb = basic && k % k_unit == 0;
    if (!minimum) {
        if (bb && m % k_tile_rows == 0) {
            while (uint64_t(m) * k >= uint64_t(k_unit) * 256u) m /= 2;
            return m * flash_row(k, size1, size2, true);
        }
        return m * flash_row(k, size1, size2, false);
    }
    uint32_t floats = bb ? k_tile_rows * flash_row(k, size1, size2, true) : flash_row(k, size1, size2, false);
    if (output_brc) {
        const uint32_t rows = std::min(32u / size1, m);
        floats = bb ? floats / k_tile_rows * rows : floats * rows;
    }
    return floats;
}

}  // namespace ascendopt_twin::host_adv

namespace AscendC {

// ---- SoftMax / SimpleSoftMax ----
template <class Shape>
uint32_t GetSoftMaxMaxTmpSize(const Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
    (void)isReuseSource;
    ascendopt_twin::host_adv::require_size("GetSoftMaxMaxTmpSize", "dataTypeSize", dataTypeSize);
    const auto s = ascendopt_twin::host_adv::last_axis("GetSoftMaxMaxTmpSize", srcShape);
    return s.m * ascendopt_twin::softmax::softmax_row(s.k, dataTypeSize) * 4;
}
template <class Shape>
uint32_t GetSoftMaxMinTmpSize(const Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
    (void)isReuseSource;
    ascendopt_twin::host_adv::require_size("GetSoftMaxMinTmpSize", "dataTypeSize", dataTypeSize);
    const auto s = ascendopt_twin::host_adv::last_axis("GetSoftMaxMinTmpSize", srcShape);
    return ascendopt_twin::softmax::softmax_row(s.k, dataTypeSize) * 4;
}
template <class Shape>
void SoftMaxTilingFunc(const Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize, SoftMaxTiling& softmaxTiling) {
    ascendopt_twin::host_adv::require_size("SoftMaxTilingFunc", "dataTypeSize", dataTypeSize);
    const auto s = ascendopt_twin::host_adv::last_axis("SoftMaxTilingFunc", srcShape);
    softmaxTiling = ascendopt_twin::softmax::softmax_tiling(s.m, s.k, dataTypeSize, localWorkSpaceSize);
}

// A tiling with no tail rows and a last axis of 256 / dataTypeSize .. 2047 elements, a multiple of 64.
inline bool IsBasicBlockInSoftMax(SoftMaxTiling& tiling, const uint32_t dataTypeSize = 2) {
    if (dataTypeSize == 0) return false;
    return tiling.tailM == 0 && tiling.srcK >= 256u / dataTypeSize && tiling.srcK < 2048u && tiling.srcK % 64u == 0;
}

// ---- SoftmaxFlashV2 ----
template <class Shape>
uint32_t GetSoftMaxFlashV2MinTmpSize(const Shape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2, const bool isUpdate,
                                     const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
    (void)isUpdate;
    ascendopt_twin::host_adv::require_size("GetSoftMaxFlashV2MinTmpSize", "dataTypeSize1", dataTypeSize1);
    ascendopt_twin::host_adv::require_size("GetSoftMaxFlashV2MinTmpSize", "dataTypeSize2", dataTypeSize2);
    const auto s = ascendopt_twin::host_adv::last_axis("GetSoftMaxFlashV2MinTmpSize", srcShape);
    return ascendopt_twin::host_adv::flash_v2_floats(s.m, s.k, dataTypeSize1, dataTypeSize2, isBasicBlock, isFlashOutputBrc, true) * 4;
}
template <class Shape>
uint32_t GetSoftMaxFlashV2MaxTmpSize(const Shape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2, const bool isUpdate,
                                     const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
    (void)isUpdate;
    ascendopt_twin::host_adv::require_size("GetSoftMaxFlashV2MaxTmpSize", "dataTypeSize1", dataTypeSize1);
    ascendopt_twin::host_adv::require_size("GetSoftMaxFlashV2MaxTmpSize", "dataTypeSize2", dataTypeSize2);
    const auto s = ascendopt_twin::host_adv::last_axis("GetSoftMaxFlashV2MaxTmpSize", srcShape);
    return ascendopt_twin::host_adv::flash_v2_floats(s.m, s.k, dataTypeSize1, dataTypeSize2, isBasicBlock, isFlashOutputBrc, false) * 4;
}
template <class Shape>
void SoftMaxFlashV2TilingFunc(const Shape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                              const uint32_t localWorkSpaceSize, SoftMaxTiling& softmaxFlashTiling, const bool isUpdate,
                              const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
    (void)isUpdate;
    ascendopt_twin::host_adv::require_size("SoftMaxFlashV2TilingFunc", "dataTypeSize1", dataTypeSize1);
    ascendopt_twin::host_adv::require_size("SoftMaxFlashV2TilingFunc", "dataTypeSize2", dataTypeSize2);
    const auto s = ascendopt_twin::host_adv::last_axis("SoftMaxFlashV2TilingFunc", srcShape);
    softmaxFlashTiling = ascendopt_twin::softmax::flash_v2_tiling(s.m, s.k, dataTypeSize1, dataTypeSize2, localWorkSpaceSize, isBasicBlock,
                                                                  isFlashOutputBrc);
}

// ---- SoftmaxGrad ----
template <class Shape>
uint32_t GetSoftMaxGradMaxTmpSize(const Shape& srcShape, const uint32_t dataTypeSize, const bool isFront, const bool isReuseSource) {
    (void)isReuseSource;
    ascendopt_twin::host_adv::require_size("GetSoftMaxGradMaxTmpSize", "dataTypeSize", dataTypeSize);
    const auto s = ascendopt_twin::host_adv::last_axis("GetSoftMaxGradMaxTmpSize", srcShape);
    return s.m * ascendopt_twin::softmax::grad_row(s.k, dataTypeSize, isFront) * 4;
}
template <class Shape>
uint32_t GetSoftMaxGradMinTmpSize(const Shape& srcShape, const uint32_t dataTypeSize, const bool isFront, const bool isReuseSource) {
    (void)isReuseSource;
    ascendopt_twin::host_adv::require_size("GetSoftMaxGradMinTmpSize", "dataTypeSize", dataTypeSize);
    const auto s = ascendopt_twin::host_adv::last_axis("GetSoftMaxGradMinTmpSize", srcShape);
    return ascendopt_twin::softmax::grad_row(s.k, dataTypeSize, isFront) * 4;
}
template <class Shape>
void SoftMaxGradTilingFunc(const Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                           SoftMaxTiling& softmaxGradTiling, const bool isFront = false) {
    ascendopt_twin::host_adv::require_size("SoftMaxGradTilingFunc", "dataTypeSize", dataTypeSize);
    const auto s = ascendopt_twin::host_adv::last_axis("SoftMaxGradTilingFunc", srcShape);
    softmaxGradTiling = ascendopt_twin::softmax::grad_tiling(s.m, s.k, dataTypeSize, localWorkSpaceSize, isFront);
}

// ---- Sort ----
// A2: the sorted (score, index) pairs, 8 bytes per element; Concat needs none. 310P: one region
// proposal (8 elements) per element, for both.
inline uint32_t GetSortTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const uint32_t elemCount, const uint32_t dataTypeSize) {
    ascendopt_twin::host_adv::require_size("GetSortTmpSize", "dataTypeSize", dataTypeSize);
    if (ascendcPlatform.GetSocVersion() == platform_ascendc::SocVersion::ASCEND310P) return elemCount * 8 * dataTypeSize;
    return elemCount * 8;
}
inline uint32_t GetConcatTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const uint32_t elemCount, const uint32_t dataTypeSize) {
    ascendopt_twin::host_adv::require_size("GetConcatTmpSize", "dataTypeSize", dataTypeSize);
    if (ascendcPlatform.GetSocVersion() == platform_ascendc::SocVersion::ASCEND310P) return elemCount * 8 * dataTypeSize;
    return 0;
}

// ---- Sum, Mean ----
// Sum: the per-repeat partial sums, rounded up to whole blocks. Mean: the same in bytes rounded
// up to 32; with a float accumulator for a half source, plus the row converted to float.
inline void GetSumMaxMinTmpSize(const uint32_t n, const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    ascendopt_twin::host_adv::require_size("GetSumMaxMinTmpSize", "typeSize", typeSize);
    if (n == 0) ascendopt_twin::host_adv::reject("GetSumMaxMinTmpSize", "n must be at least 1");
    const uint32_t per_blk = 32 / typeSize, per_repeat = 256 / typeSize;
    const uint32_t repeats = (n + per_repeat - 1) / per_repeat;
    maxValue = minValue = (repeats + per_blk - 1) / per_blk * per_blk * typeSize;
}
inline void GetMeanMaxMinTmpSize(const uint32_t n, const uint32_t srcTypeSize, const uint32_t accTypeSize, const bool isReuseSource,
                                 uint32_t& maxSize, uint32_t& minSize) {
    (void)isReuseSource;
    const bool ok = (srcTypeSize == 2 && accTypeSize == 2) || (srcTypeSize == 4 && accTypeSize == 4) || (srcTypeSize == 2 && accTypeSize == 4);
    if (!ok)
        ascendopt_twin::host_adv::reject("GetMeanMaxMinTmpSize", "(srcTypeSize, accTypeSize) is (" + std::to_string(srcTypeSize) + ", " +
                                                                     std::to_string(accTypeSize) + "): (2, 2), (4, 4) or (2, 4) only");
    if (n == 0) ascendopt_twin::host_adv::reject("GetMeanMaxMinTmpSize", "n must be at least 1");
    const uint32_t acc = accTypeSize;
    const uint32_t repeats = (n + 256 / acc - 1) / (256 / acc);
    uint32_t size = (repeats + 31) / 32 * 32;
    if (srcTypeSize == 2 && accTypeSize == 4) size += (n * srcTypeSize + 31) / 32 * 32 / srcTypeSize * 4;
    maxSize = minSize = size;
}

// ---- SelectWithBytesMask ----
// 1024 bytes at least; the source padded to 32 elements as half plus 512 reserved; with the
// whole source (maximum) or at most 4096 elements of it (minimum); plus the compacted mask when
// the mask's last axis differs from the source's and the mask may not be reused.
template <class Shape>
uint32_t select_bytes_mask_tmp(const Shape& src0Shape, const Shape& src1Shape, const Shape& maskShape, const uint32_t maskTypeSize,
                               const bool isReuseMask, bool minimum) {
    const bool src0_scalar = src0Shape.GetDimNum() == 0 || ascendopt_twin::host_adv::elements(src0Shape) == 1;
    const Shape& src = src0_scalar ? src1Shape : src0Shape;
    const uint64_t src_size = ascendopt_twin::host_adv::elements(src);
    const int64_t src_last = src.GetDimNum() ? src.GetDim(src.GetDimNum() - 1) : 1;
    const int64_t mask_last = maskShape.GetDimNum() ? maskShape.GetDim(maskShape.GetDimNum() - 1) : 1;
    const uint64_t cal = (minimum && src_size > 4096) ? 4096 : src_size;
    uint64_t need = std::max<uint64_t>(1024, (cal + 31) / 32 * 32 * 2 + 512);
    if (mask_last != src_last && !isReuseMask && mask_last > 1) need += (src_size * maskTypeSize + 31) / 32 * 32;
    return static_cast<uint32_t>(need);
}
template <class Shape>
uint32_t GetSelectWithBytesMaskMinTmpSize(const Shape& src0Shape, const Shape& src1Shape, const uint32_t srcTypeSize, const Shape& maskShape,
                                          const uint32_t maskTypeSize, const bool isReuseMask) {
    (void)srcTypeSize;
    return select_bytes_mask_tmp(src0Shape, src1Shape, maskShape, maskTypeSize, isReuseMask, true);
}
template <class Shape>
uint32_t GetSelectWithBytesMaskMaxTmpSize(const Shape& src0Shape, const Shape& src1Shape, const uint32_t srcTypeSize, const Shape& maskShape,
                                          const uint32_t maskTypeSize, const bool isReuseMask) {
    (void)srcTypeSize;
    return select_bytes_mask_tmp(src0Shape, src1Shape, maskShape, maskTypeSize, isReuseMask, false);
}
template <class Shape>
void GetSelectWithBytesMaskMaxMinTmpSize(const Shape& src0Shape, const Shape& src1Shape, const uint32_t srcTypeSize, const Shape& maskShape,
                                         const uint32_t maskTypeSize, const bool isReuseMask, uint32_t& maxValue, uint32_t& minValue) {
    maxValue = GetSelectWithBytesMaskMaxTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask);
    minValue = GetSelectWithBytesMaskMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask);
}
template <class Shape>
void GetSelectMaxMinTmpSize(const Shape& src0Shape, const Shape& src1Shape, const uint32_t srcTypeSize, const Shape& maskShape,
                            const uint32_t maskTypeSize, const bool isReuseMask, uint32_t& maxValue, uint32_t& minValue) {
    GetSelectWithBytesMaskMaxMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask, maxValue, minValue);
}

// ---- AscendQuant, AscendDequant, AscendAntiQuant ----
// Quant: two repeats at least, twice the source bytes at most. Dequant: one repeat of floats,
// the source row (minimum) or all of it (maximum) and the scale row plus a block, as floats.
template <class Shape>
void GetAscendQuantMaxMinTmpSize(const Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue) {
    ascendopt_twin::host_adv::require_size("GetAscendQuantMaxMinTmpSize", "typeSize", typeSize);
    const uint64_t n = ascendopt_twin::host_adv::elements(srcShape);
    if (n == 0) ascendopt_twin::host_adv::reject("GetAscendQuantMaxMinTmpSize", "the source shape is empty");
    minValue = 2 * 256;
    maxValue = static_cast<uint32_t>((std::max<uint64_t>(n * 2, 512) + 31) / 32 * 32);
}
template <class Shape>
void GetAscendDequantMaxMinTmpSize(const Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue) {
    if (typeSize != 4) ascendopt_twin::host_adv::reject("GetAscendDequantMaxMinTmpSize", "typeSize must be 4 (int32_t source)");
    const size_t dims = srcShape.GetDimNum();
    if (dims == 0 || dims > 2) ascendopt_twin::host_adv::reject("GetAscendDequantMaxMinTmpSize", "the source shape must have 1 or 2 dimensions");
    const uint32_t outer = dims == 2 ? uint32_t(srcShape.GetDim(0)) : 1u;
    const uint32_t inner = uint32_t(srcShape.GetDim(dims - 1));
    const uint32_t scale = inner + 8;
    maxValue = (64 + outer * inner + scale) * 4;
    minValue = (64 + inner + scale) * 4;
}
// AntiQuant (A2): none for a half destination; for bfloat16_t: per tensor 1024 bytes minimum and
// the source as floats maximum; per channel (scale of more than one element) 2 floats per scale
// element plus 64 floats per row of k (k = srcShape[0]); transposed, 80 floats per scale element.
template <class Shape>
uint32_t ascend_antiquant_tmp(const Shape& srcShape, const Shape& scaleShape, bool isTranspose, ge::DataType outputDataType, bool minimum) {
    if (outputDataType == ge::DT_FLOAT16) return 0;
    const uint64_t scale = ascendopt_twin::host_adv::elements(scaleShape);
    const uint64_t src = ascendopt_twin::host_adv::elements(srcShape);
    if (scale == 1) return minimum ? 1024u : static_cast<uint32_t>(src * 4);
    if (isTranspose) return static_cast<uint32_t>(80 * scale * 4);
    const uint64_t k = srcShape.GetDimNum() ? uint64_t(srcShape.GetDim(0)) : 1;
    return static_cast<uint32_t>(scale * 2 * 4 + 64 * k * 4);
}
template <class Shape>
uint32_t GetAscendAntiQuantMaxTmpSize(const Shape& srcShape, const Shape& scaleShape, bool isTranspose, ge::DataType inputDataType,
                                      ge::DataType outputDataType) {
    (void)inputDataType;
    return ascend_antiquant_tmp(srcShape, scaleShape, isTranspose, outputDataType, false);
}
template <class Shape>
uint32_t GetAscendAntiQuantMinTmpSize(const Shape& srcShape, const Shape& scaleShape, bool isTranspose, ge::DataType inputDataType,
                                      ge::DataType outputDataType) {
    (void)inputDataType;
    return ascend_antiquant_tmp(srcShape, scaleShape, isTranspose, outputDataType, true);
}
template <class Shape>
void GetAscendAntiQuantMaxMinTmpSize(const Shape& srcShape, const Shape& scaleShape, bool isTranspose, ge::DataType inputDataType,
                                     ge::DataType outputDataType, uint32_t& maxValue, uint32_t& minValue) {
    maxValue = GetAscendAntiQuantMaxTmpSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType);
    minValue = GetAscendAntiQuantMinTmpSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType);
}

}  // namespace AscendC
