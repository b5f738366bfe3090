// Data movement: DataCopy (GM<->UB, UB<->UB, contiguous or strided in 32-byte blocks),
// DataCopyPad (byte-exact lengths with padding to the 32-byte UB block) and Copy.
// The hardware moves whole 32-byte blocks, so DataCopy lengths and UB addresses must be
// multiples of 32 bytes; the twin rejects anything else instead of corrupting memory.
#pragma once

#include "ascendopt_twin/attrs.h"

#include <string>

#include "ascendopt_twin/kernel/tensor.h"
#include "ascendopt_twin/runtime_gm.h"

namespace AscendC {

struct DataCopyParams {
    uint16_t blockCount = 1;
    uint16_t blockLen = 0;  // 32-byte blocks (bytes for the DataCopyPad overloads)
    uint16_t srcStride = 0;
    uint16_t dstStride = 0;
    DataCopyParams() = default;
    ASCENDOPT_TWIN_FN DataCopyParams(uint16_t count, uint16_t len, uint16_t src, uint16_t dst)
        ASCENDOPT_TWIN_FN : blockCount(count), blockLen(len), srcStride(src), dstStride(dst) {}
};

struct DataCopyExtParams {
    uint16_t blockCount = 1;
    uint32_t blockLen = 0;  // bytes
    uint32_t srcStride = 0;
    uint32_t dstStride = 0;
    uint32_t rsv = 0;
    DataCopyExtParams() = default;
    ASCENDOPT_TWIN_FN DataCopyExtParams(uint16_t count, uint32_t len, uint32_t src, uint32_t dst, uint32_t r)
        ASCENDOPT_TWIN_FN : blockCount(count), blockLen(len), srcStride(src), dstStride(dst), rsv(r) {}
};

template <class T>
struct DataCopyPadExtParams {
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    T paddingValue = T();
    DataCopyPadExtParams() = default;
    ASCENDOPT_TWIN_FN DataCopyPadExtParams(bool pad, uint8_t left, uint8_t right, T value)
        ASCENDOPT_TWIN_FN : isPad(pad), leftPadding(left), rightPadding(right), paddingValue(value) {}
};

struct DataCopyPadParams {
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    uint64_t paddingValue = 0;
    DataCopyPadParams() = default;
    ASCENDOPT_TWIN_FN DataCopyPadParams(bool pad, uint8_t left, uint8_t right, uint64_t value)
        ASCENDOPT_TWIN_FN : isPad(pad), leftPadding(left), rightPadding(right), paddingValue(value) {}
};

}  // namespace AscendC

namespace ascendopt_twin::detail {

ASCENDOPT_TWIN_FN inline void require_ub_aligned(const void* p, const char* api) {
    const uint64_t off = uint64_t(static_cast<const uint8_t*>(p) - ub_base());
    if (off % 32 != 0)
        fail(ErrorKind::run_failed, api,
             "UB address offset " + str(off) + " is not 32-byte aligned; UB tensors passed to DataCopy must start on a 32-byte block");
}

ASCENDOPT_TWIN_FN inline void require_ub_span(const void* begin, uint64_t bytes, uint64_t tensor_bytes, const char* api, const char* side) {
    check_ub_access(api, side, begin, bytes, tensor_bytes);
}

ASCENDOPT_TWIN_FN inline void require_block_multiple(uint64_t count, uint64_t elem, const char* api) {
    if ((count * elem) % 32 != 0)
        fail(ErrorKind::run_failed, api,
             "count " + str(count) + " x " + str(elem) + " bytes = " + str(count * elem) +
                 " bytes is not a multiple of 32; DataCopy moves whole 32-byte blocks, use DataCopyPad for ragged lengths");
}

// One strided transfer: `count` blocks of `len` bytes, gaps of src_gap/dst_gap bytes between blocks.
struct Strided {
    uint64_t count, len, src_gap, dst_gap;
    ASCENDOPT_TWIN_FN uint64_t src_extent() const { return count == 0 ? 0 : count * len + (count - 1) * src_gap; }
    ASCENDOPT_TWIN_FN uint64_t dst_extent() const { return count == 0 ? 0 : count * len + (count - 1) * dst_gap; }
};

}  // namespace ascendopt_twin::detail

namespace AscendC {

// GM -> UB, `count` elements.
template <class T>
ASCENDOPT_TWIN_FN void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t count) {
    using namespace ascendopt_twin::detail;
    require_block_multiple(count, sizeof(T), "DataCopy(GM->UB)");
    require_ub_aligned(dst.data(), "DataCopy(GM->UB)");
    require_ub_span(dst.data(), uint64_t(count) * sizeof(T), uint64_t(dst.extent()) * sizeof(T), "DataCopy(GM->UB)", "destination");
    const uint64_t bytes = uint64_t(count) * sizeof(T);
    ascendopt_twin::raw_copy(dst.data(), ascendopt_twin::gm_translate(src.address(), bytes, false, "DataCopy(GM->UB)", src.origin()), bytes);
    ascendopt_twin::account_copy(ascendopt_twin::PipeId::MTE2, "DataCopy", bytes, 1, dst.data());
}

// UB -> GM, `count` elements.
template <class T>
ASCENDOPT_TWIN_FN void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
    using namespace ascendopt_twin::detail;
    require_block_multiple(count, sizeof(T), "DataCopy(UB->GM)");
    require_ub_aligned(src.data(), "DataCopy(UB->GM)");
    require_ub_span(src.data(), uint64_t(count) * sizeof(T), uint64_t(src.extent()) * sizeof(T), "DataCopy(UB->GM)", "source");
    const uint64_t bytes = uint64_t(count) * sizeof(T);
    ascendopt_twin::gm_write(dst.address(), src.data(), bytes, "DataCopy(UB->GM)", dst.origin());
    ascendopt_twin::account_copy(ascendopt_twin::PipeId::MTE3, "DataCopy", bytes, 1, src.data());
}

// UB -> UB, `count` elements.
template <class T>
ASCENDOPT_TWIN_FN void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
    using namespace ascendopt_twin::detail;
    require_block_multiple(count, sizeof(T), "DataCopy(UB->UB)");
    require_ub_aligned(dst.data(), "DataCopy(UB->UB)");
    require_ub_aligned(src.data(), "DataCopy(UB->UB)");
    require_ub_span(dst.data(), uint64_t(count) * sizeof(T), uint64_t(dst.extent()) * sizeof(T), "DataCopy(UB->UB)", "destination");
    require_ub_span(src.data(), uint64_t(count) * sizeof(T), uint64_t(src.extent()) * sizeof(T), "DataCopy(UB->UB)", "source");
    ascendopt_twin::raw_move(dst.data(), src.data(), uint64_t(count) * sizeof(T));
    ascendopt_twin::account_vector("copy_ub_to_ub", uint64_t(count) * sizeof(T), dst.data(), src.data());
}

// UB -> UB strided: blockCount bursts of blockLen 32-byte blocks, the gaps between bursts in
// blocks; charged as the count form is.
template <class T>
ASCENDOPT_TWIN_FN void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
    using namespace ascendopt_twin::detail;
    const Strided s{p.blockCount, uint64_t(p.blockLen) * 32, uint64_t(p.srcStride) * 32, uint64_t(p.dstStride) * 32};
    require_ub_aligned(dst.data(), "DataCopy(UB->UB, params)");
    require_ub_aligned(src.data(), "DataCopy(UB->UB, params)");
    require_ub_span(dst.data(), s.dst_extent(), uint64_t(dst.extent()) * sizeof(T), "DataCopy(UB->UB, params)", "destination");
    require_ub_span(src.data(), s.src_extent(), uint64_t(src.extent()) * sizeof(T), "DataCopy(UB->UB, params)", "source");
    auto* to = reinterpret_cast<uint8_t*>(dst.data());
    const auto* from = reinterpret_cast<const uint8_t*>(src.data());
    for (uint64_t i = 0; i < s.count; ++i) ascendopt_twin::raw_move(to + i * (s.len + s.dst_gap), from + i * (s.len + s.src_gap), s.len);
    ascendopt_twin::account_vector("copy_ub_to_ub", s.count * s.len, dst.data(), src.data());
}

// GM -> UB strided: blockLen and strides in 32-byte blocks.
template <class T>
ASCENDOPT_TWIN_FN void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p) {
    using namespace ascendopt_twin::detail;
    const Strided s{p.blockCount, uint64_t(p.blockLen) * 32, uint64_t(p.srcStride) * 32, uint64_t(p.dstStride) * 32};
    require_ub_aligned(dst.data(), "DataCopy(GM->UB, params)");
    require_ub_span(dst.data(), s.dst_extent(), uint64_t(dst.extent()) * sizeof(T), "DataCopy(GM->UB, params)", "destination");
    const uint8_t* gm = ascendopt_twin::gm_translate(src.address(), s.src_extent(), false, "DataCopy(GM->UB, params)", src.origin());
    auto* ub = reinterpret_cast<uint8_t*>(dst.data());
    for (uint64_t i = 0; i < s.count; ++i) ascendopt_twin::raw_copy(ub + i * (s.len + s.dst_gap), gm + i * (s.len + s.src_gap), s.len);
    ascendopt_twin::account_copy(ascendopt_twin::PipeId::MTE2, "DataCopy", s.count * s.len, uint32_t(s.count), dst.data());
}

// UB -> GM strided: blockLen and strides in 32-byte blocks.
template <class T>
ASCENDOPT_TWIN_FN void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
    using namespace ascendopt_twin::detail;
    const Strided s{p.blockCount, uint64_t(p.blockLen) * 32, uint64_t(p.srcStride) * 32, uint64_t(p.dstStride) * 32};
    require_ub_aligned(src.data(), "DataCopy(UB->GM, params)");
    require_ub_span(src.data(), s.src_extent(), uint64_t(src.extent()) * sizeof(T), "DataCopy(UB->GM, params)", "source");
    ascendopt_twin::gm_check_write(dst.address(), s.dst_extent(), "DataCopy(UB->GM, params)", dst.origin());  // the whole range, before any write
    const auto* ub = reinterpret_cast<const uint8_t*>(src.data());
    for (uint64_t i = 0; i < s.count; ++i)
        ascendopt_twin::gm_write(dst.address() + i * (s.len + s.dst_gap), ub + i * (s.len + s.src_gap), s.len, "DataCopy(UB->GM, params)", dst.origin());
    ascendopt_twin::account_copy(ascendopt_twin::PipeId::MTE3, "DataCopy", s.count * s.len, uint32_t(s.count), src.data());
}

// GM -> UB with byte-exact block length. GM gaps are bytes, UB gaps are 32-byte blocks; each
// UB block is [left pad][data][right pad][dummy], rounded up to 32 bytes. As documented: with no
// left or right padding the dummy repeats the block's first element; otherwise the pads and the
// dummy hold paddingValue when isPad is set, and unspecified bytes (here poison, 0xFF) when not.
template <class T>
ASCENDOPT_TWIN_FN void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& p,
                 const DataCopyPadExtParams<T>& pad) {
    using namespace ascendopt_twin::detail;
    const char* api = "DataCopyPad(GM->UB)";
    require_ub_aligned(dst.data(), api);
    if (p.blockLen % sizeof(T) != 0)
        ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, api,
                             "blockLen " + str(p.blockLen) + " bytes is not a whole number of " + str(sizeof(T)) + "-byte elements");
    const uint64_t left = uint64_t(pad.leftPadding) * sizeof(T);
    const uint64_t right = uint64_t(pad.rightPadding) * sizeof(T);
    if (left > 32 || right > 32)
        ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, api, "left/right padding must each fit in one 32-byte block");
    const uint64_t ub_block = align32(left + p.blockLen + right);
    const uint64_t ub_step = ub_block + uint64_t(p.dstStride) * 32;
    const uint64_t ub_extent = p.blockCount == 0 ? 0 : (p.blockCount - 1) * ub_step + ub_block;
    require_ub_span(dst.data(), ub_extent, uint64_t(dst.extent()) * sizeof(T), api, "destination");
    const Strided s{p.blockCount, p.blockLen, p.srcStride, 0};
    const uint8_t* gm = ascendopt_twin::gm_translate(src.address(), s.src_extent(), false, api, src.origin());
    auto* ub = reinterpret_cast<uint8_t*>(dst.data());
    const bool first_element_dummy = left == 0 && right == 0;
    for (uint64_t i = 0; i < s.count; ++i) {
        uint8_t* block = ub + i * ub_step;
        const uint8_t* data = gm + i * (s.len + s.src_gap);
        for (uint64_t b = 0; b < ub_block; b += sizeof(T)) {  // the pads and the dummy
            if (b >= left && b < left + s.len) continue;
            if (first_element_dummy) ascendopt_twin::raw_copy(block + b, data, sizeof(T));
            else if (pad.isPad) ascendopt_twin::raw_copy(block + b, &pad.paddingValue, sizeof(T));
            else ascendopt_twin::raw_fill(block + b, 0xFF, sizeof(T));
        }
        ascendopt_twin::raw_copy(block + left, data, s.len);
    }
    ascendopt_twin::account_copy(ascendopt_twin::PipeId::MTE2, "DataCopyPad", s.count * s.len, uint32_t(s.count), dst.data());
}

// UB -> GM with byte-exact block length. UB gaps are 32-byte blocks, GM gaps are bytes.
template <class T>
ASCENDOPT_TWIN_FN void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& p) {
    using namespace ascendopt_twin::detail;
    const char* api = "DataCopyPad(UB->GM)";
    require_ub_aligned(src.data(), api);
    const uint64_t ub_step = align32(p.blockLen) + uint64_t(p.srcStride) * 32;
    const uint64_t ub_extent = p.blockCount == 0 ? 0 : (p.blockCount - 1) * ub_step + p.blockLen;
    require_ub_span(src.data(), ub_extent, uint64_t(src.extent()) * sizeof(T), api, "source");
    const Strided s{p.blockCount, p.blockLen, 0, p.dstStride};
    ascendopt_twin::gm_check_write(dst.address(), s.dst_extent(), api, dst.origin());  // the whole range, before any write
    const auto* ub = reinterpret_cast<const uint8_t*>(src.data());
    for (uint64_t i = 0; i < s.count; ++i) ascendopt_twin::gm_write(dst.address() + i * (s.len + s.dst_gap), ub + i * ub_step, s.len, api, dst.origin());
    ascendopt_twin::account_copy(ascendopt_twin::PipeId::MTE3, "DataCopyPad", s.count * s.len, uint32_t(s.count), src.data());
}

// Older overloads taking DataCopyParams with blockLen in bytes.
template <class T>
ASCENDOPT_TWIN_FN void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p, const DataCopyPadParams& pad) {
    T value;
    ascendopt_twin::raw_copy(&value, &pad.paddingValue, sizeof(T));
    DataCopyPad(dst, src, DataCopyExtParams(p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0),
                DataCopyPadExtParams<T>(pad.isPad, pad.leftPadding, pad.rightPadding, value));
}
template <class T>
ASCENDOPT_TWIN_FN void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
    DataCopyPad(dst, src, DataCopyExtParams(p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0));
}

}  // namespace AscendC
