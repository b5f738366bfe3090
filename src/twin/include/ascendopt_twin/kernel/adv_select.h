// SelectWithBytesMask (documented today as the advanced Select): chooses, element by element of
// a [firstAxis, srcLastAxis] tensor, between it and a scalar by a mask of whole elements (not
// bits) laid out [firstAxis, maskLastAxis]; mask columns past srcLastAxis are ignored.
//  - (dst, srcTensor, scalar, mask, ...): mask 0 takes the tensor's element, otherwise the scalar;
//  - (dst, scalar, srcTensor, mask, ...): mask 0 takes the scalar, otherwise the tensor's element.
// dst may be the source tensor. The temporary buffer is checked for the documented minimum
// (GetSelectWithBytesMaskMinTmpSize: 1024 bytes at least) like any operand: a smaller buffer is
// a note, as the device writes past it into the next one (an error under --strict-ub).
// With isReuseMask and mask rows longer than the source's, the device compacts the mask in
// place; the twin leaves it unchanged (the documentation says only that it may be modified).
#pragma once

#include "ascendopt_twin/attrs.h"

#include "ascendopt_twin/kernel/adv_api.h"

namespace AscendC {

struct SelectWithBytesMaskShapeInfo {
    SelectWithBytesMaskShapeInfo() {}
    uint32_t firstAxis = 0;
    uint32_t srcLastAxis = 0;
    uint32_t maskLastAxis = 0;
};

}  // namespace AscendC

namespace ascendopt_twin::select {

template <class T, class U>
ASCENDOPT_TWIN_FN void bytes_mask(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, T scalar,
                                  bool scalar_on_zero, const AscendC::LocalTensor<U>& mask, const AscendC::LocalTensor<uint8_t>& tmp,
                                  const AscendC::SelectWithBytesMaskShapeInfo& info, bool reuse_mask) {
    static_assert(std::is_same_v<T, Half> || std::is_same_v<T, float>, "SelectWithBytesMask selects half or float");
    static_assert(sizeof(U) == 1 || sizeof(U) == 2 || sizeof(U) == 4, "the mask is bool or an 8/16/32-bit integer");
    const uint32_t rows = info.firstAxis, cols = info.srcLastAxis, mcols = info.maskLastAxis;
    if (rows == 0 || cols == 0 || mcols < cols)
        adv::fail_api(api, "shape info {firstAxis " + adv::num(rows) + ", srcLastAxis " + adv::num(cols) + ", maskLastAxis " + adv::num(mcols) +
                               "}: need a row, and mask rows at least as long as source rows");
    if (uint64_t(cols) * sizeof(T) % 32 != 0)
        adv::fail_api(api, "srcLastAxis " + adv::num(cols) + " is not a whole number of 32-byte blocks");
    if (uint64_t(mcols) * sizeof(U) % 32 != 0 || mcols % 16 != 0)
        adv::fail_api(api, "maskLastAxis " + adv::num(mcols) + " must be 32-byte aligned and a multiple of 16 elements");
    const uint64_t n = uint64_t(rows) * cols;
    uint64_t need = std::max<uint64_t>(1024, (std::min<uint64_t>(n, 4096) + 31) / 32 * 32 * 2 + 512);
    if (mcols != cols && !reuse_mask && mcols > 1) need += (n * sizeof(U) + 31) / 32 * 32;
    adv::require_tmp(api, tmp, need);
    adv::require(api, "source", src, n);
    adv::require(api, "mask", mask, uint64_t(rows) * mcols);
    adv::require(api, "destination", dst, n);
    for (uint32_t i = 0; i < rows; ++i)
        for (uint32_t j = 0; j < cols; ++j) {
            const uint64_t at = uint64_t(i) * cols + j;
            const bool zero = mask.data()[uint64_t(i) * mcols + j] == U(0);
            dst.data()[at] = zero == scalar_on_zero ? scalar : src.data()[at];
        }
    // Estimate: the mask compacted when its rows are longer, cast to half, compared with 0, then
    // the select, per 128-element pass.
    if (mcols != cols) adv::charge("GatherMask", uint64_t(rows) * mcols * sizeof(U), tmp.data(), mask.data());
    adv::charge("Cast", n * 2, tmp.data(), mask.data());
    adv::charge("CompareScalar", n * 2, tmp.data(), tmp.data());
    adv::charge("Select", n * sizeof(T), dst.data(), src.data(), tmp.data());
}

}  // namespace ascendopt_twin::select

namespace AscendC {

template <typename T, typename U, bool isReuseMask = true>
ASCENDOPT_TWIN_FN void SelectWithBytesMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, T src1, const LocalTensor<U>& mask,
                                           const LocalTensor<uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info) {
    ascendopt_twin::select::bytes_mask("SelectWithBytesMask", dst, src0, src1, false, mask, sharedTmpBuffer, info, isReuseMask);
}
template <typename T, typename U, bool isReuseMask = true>
ASCENDOPT_TWIN_FN void SelectWithBytesMask(const LocalTensor<T>& dst, T src0, const LocalTensor<T>& src1, const LocalTensor<U>& mask,
                                           const LocalTensor<uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info) {
    ascendopt_twin::select::bytes_mask("SelectWithBytesMask", dst, src1, src0, true, mask, sharedTmpBuffer, info, isReuseMask);
}
template <typename T, typename U, bool isReuseMask = true>
ASCENDOPT_TWIN_FN void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, T src1, const LocalTensor<U>& mask,
                              const LocalTensor<uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info) {
    ascendopt_twin::select::bytes_mask("Select", dst, src0, src1, false, mask, sharedTmpBuffer, info, isReuseMask);
}
template <typename T, typename U, bool isReuseMask = true>
ASCENDOPT_TWIN_FN void Select(const LocalTensor<T>& dst, T src0, const LocalTensor<T>& src1, const LocalTensor<U>& mask,
                              const LocalTensor<uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info) {
    ascendopt_twin::select::bytes_mask("Select", dst, src1, src0, true, mask, sharedTmpBuffer, info, isReuseMask);
}

}  // namespace AscendC
