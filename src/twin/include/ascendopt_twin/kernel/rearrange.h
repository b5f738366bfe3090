// Vector APIs that rearrange or generate data: Brcb (each element to a whole block),
// ArithProgression, Gather (by byte offsets, count and mask forms), Gatherb (by 32-byte blocks), TransDataTo5HD (the 16-block
// transpose), RepeatReduceSum, and the fused multiply-adds FusedMulAdd and MulAddDst.
// Every element any of them touches is checked against its tensor's UB buffer first.
#pragma once

#include "ascendopt_twin/attrs.h"

#include <cstring>
#include <string>
#include <type_traits>

#include "ascendopt_twin/kernel/vec_reduce.h"
#include "ascendopt_twin/kernel/vec_math.h"

namespace AscendC {

struct BrcbRepeatParams {
    uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    BrcbRepeatParams() = default;
    ASCENDOPT_TWIN_FN BrcbRepeatParams(uint16_t blk, uint16_t rep) : dstBlkStride(blk), dstRepStride(rep) {}
};

struct TransDataTo5HDParams {
    bool dstHighHalf = false;
    bool srcHighHalf = false;
    uint8_t repeatTimes = 1;
    uint16_t dstRepStride = 0;
    uint16_t srcRepStride = 0;
    TransDataTo5HDParams() = default;
    ASCENDOPT_TWIN_FN TransDataTo5HDParams(bool dstHigh, bool srcHigh, uint8_t repeat, uint16_t dstRep, uint16_t srcRep)
        : dstHighHalf(dstHigh), srcHighHalf(srcHigh), repeatTimes(repeat), dstRepStride(dstRep), srcRepStride(srcRep) {}
};

constexpr int32_t NCHW_CONV_ADDR_LIST_SIZE = 16;

// Gatherb's destination strides, in 32-byte blocks: between the blocks of one repeat and
// between repeats.
struct GatherRepeatParams {
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    GatherRepeatParams() = default;
    ASCENDOPT_TWIN_FN GatherRepeatParams(uint16_t blk, uint16_t rep) : dstBlkStride(blk), dstRepStride(rep) {}
};

}  // namespace AscendC

namespace ascendopt_twin::detail {

// Checks element `index` of tensor `t` (a strided access the footprint helpers do not cover).
template <class T>
ASCENDOPT_TWIN_FN void require_element(const AscendC::LocalTensor<T>& t, uint64_t index, const char* api, const char* which) {
    if (index >= t.extent()) check_ub_access(api, which, t.data(), (index + 1) * sizeof(T), uint64_t(t.extent()) * sizeof(T));
}

}  // namespace ascendopt_twin::detail

namespace AscendC {

// Brcb: repeat r takes the 8 source elements src[8r .. 8r+7] and fills destination block j of
// that repeat (at dstBlkStride blocks apart, repeats dstRepStride blocks apart) with src[8r+j].
template <class T>
ASCENDOPT_TWIN_FN void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t repeatTimes, const BrcbRepeatParams& p) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Brcb takes 16- or 32-bit elements");
    using namespace ascendopt_twin::detail;
    constexpr uint32_t epb = block_elems<T>();
    require_count(uint64_t(repeatTimes) * 8, src0, "Brcb", "source");
    if (repeatTimes > 0)
        require_count((uint64_t(repeatTimes - 1) * p.dstRepStride + 7ull * p.dstBlkStride + 1) * epb, dst, "Brcb", "destination");
    for (uint32_t r = 0; r < repeatTimes; ++r)
        for (uint32_t j = 0; j < 8; ++j) {
            const T v = src0.data()[r * 8 + j];
            T* block = dst.data() + (uint64_t(r) * p.dstRepStride + uint64_t(j) * p.dstBlkStride) * epb;
            for (uint32_t k = 0; k < epb; ++k) block[k] = v;
        }
    record_vector<T>("Brcb", uint64_t(repeatTimes) * 8 * epb, dst.data(), src0.data());
}

// dst[i] = firstValue + i * diffValue, computed in float (int32 for integers) and rounded once.
template <class T>
ASCENDOPT_TWIN_FN void ArithProgression(const LocalTensor<T>& dst, const ascendopt_twin::detail::same_t<T> firstValue,
                                        const ascendopt_twin::detail::same_t<T> diffValue, const int32_t count) {
    using namespace ascendopt_twin::detail;
    if (count < 0) ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, "ArithProgression", "negative count " + str(uint64_t(-int64_t(count))));
    require_count(uint64_t(count), dst, "ArithProgression", "destination");
    using C = compute_t<T>;
    const C first = static_cast<C>(firstValue), diff = static_cast<C>(diffValue);
    for (int32_t i = 0; i < count; ++i) dst.data()[i] = static_cast<T>(first + static_cast<C>(i) * diff);
    record_vector<T>("ArithProgression", uint64_t(count), dst.data());
}

}  // namespace AscendC

namespace ascendopt_twin::detail {

// One Gather element: the source element at byte `base + offset` of src.
template <class T>
ASCENDOPT_TWIN_FN T gather_one(const AscendC::LocalTensor<T>& src, uint64_t byte, const char* api) {
    if (byte % sizeof(T) != 0)
        fail(ErrorKind::run_failed, api,
             "source byte offset " + str(byte) + " is not a multiple of the " + str(sizeof(T)) + "-byte element; srcOffsetLocal holds byte offsets");
    require_element(src, byte / sizeof(T), api, "source");
    return src.data()[byte / sizeof(T)];
}

}  // namespace ascendopt_twin::detail

namespace AscendC {

// Gather, count form: dst[i] = the source element at byte srcBaseAddr + srcOffsetLocal[i] of src.
template <class T>
ASCENDOPT_TWIN_FN void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffsetLocal,
                              const uint32_t srcBaseAddr, const uint32_t count) {
    using namespace ascendopt_twin::detail;
    require_count(count, dst, "Gather", "destination");
    require_count(count, srcOffsetLocal, "Gather", "offset");
    for (uint32_t i = 0; i < count; ++i)
        dst.data()[i] = gather_one(src, uint64_t(srcBaseAddr) + srcOffsetLocal.data()[i], "Gather");
    record_vector<T>("Gather", count, dst.data(), src.data(), srcOffsetLocal.data());
}

// Gatherb: whole 32-byte blocks. Repeat r gathers 8 blocks: block j is the source block at byte
// offset[8r + j] of src0 (a multiple of 32), written at destination block r * dstRepStride +
// j * dstBlkStride. No mask applies. The 910B documents it for uint16_t and uint32_t.
template <class T>
ASCENDOPT_TWIN_FN void Gatherb(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<uint32_t>& offset,
                               const uint8_t repeatTime, const GatherRepeatParams& p) {
    static_assert(std::is_same_v<T, uint16_t> || std::is_same_v<T, uint32_t>, "Gatherb takes uint16_t or uint32_t (910B)");
    using namespace ascendopt_twin::detail;
    constexpr uint32_t epb = block_elems<T>();
    if (repeatTime == 0) ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, "Gatherb", "repeatTime 0: it must be 1..255");
    require_count(uint64_t(repeatTime) * 8, offset, "Gatherb", "offset");
    require_count((uint64_t(repeatTime - 1) * p.dstRepStride + 7ull * p.dstBlkStride + 1) * epb, dst, "Gatherb", "destination");
    for (uint32_t r = 0; r < repeatTime; ++r)
        for (uint32_t j = 0; j < 8; ++j) {
            const uint32_t byte = offset.data()[r * 8 + j];
            if (byte % 32 != 0)
                ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, "Gatherb",
                                     "offset[" + str(uint64_t(r) * 8 + j) + "] = " + str(byte) + " is not a multiple of 32 bytes");
            const uint64_t first = byte / sizeof(T);
            require_element(src0, first + epb - 1, "Gatherb", "source");
            T* block = dst.data() + (uint64_t(r) * p.dstRepStride + uint64_t(j) * p.dstBlkStride) * epb;
            ascendopt_twin::raw_move(block, src0.data() + first, 32);
        }
    record_vector<T>("Gatherb", uint64_t(repeatTime) * 8 * epb, dst.data(), src0.data(), offset.data());
}

// Gather, mask forms: lane `lane` of repeat r reads offset r * lanes + lane and writes the
// destination at dstRepStride blocks per repeat.
template <class T>
ASCENDOPT_TWIN_FN void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffsetLocal,
                              const uint32_t srcBaseAddr, const uint64_t mask, const uint8_t repeatTimes, const uint16_t dstRepStride) {
    using namespace ascendopt_twin::detail;
    const Lanes l = lanes_from_count<T>(mask, repeatTimes, true, "Gather");
    require_footprint<T>(l, 1, dstRepStride, dst, "Gather", "destination");
    for (uint32_t r = 0; r < l.repeats; ++r)
        for (uint32_t lane = 0; lane < l.lanes_per_repeat; ++lane) {
            if (!l.active(r, lane)) continue;
            const uint64_t o = uint64_t(r) * l.lanes_per_repeat + lane;
            require_element(srcOffsetLocal, o, "Gather", "offset");
            dst.data()[lane_index<T>(r, lane, 1, dstRepStride)] = gather_one(src, uint64_t(srcBaseAddr) + srcOffsetLocal.data()[o], "Gather");
        }
    record_vector<T>("Gather", uint64_t(l.repeats) * l.lanes_per_repeat, dst.data(), src.data(), srcOffsetLocal.data());
}
template <class T>
ASCENDOPT_TWIN_FN void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffsetLocal,
                              const uint32_t srcBaseAddr, const uint64_t mask[], const uint8_t repeatTimes, const uint16_t dstRepStride) {
    using namespace ascendopt_twin::detail;
    const Lanes l = lanes_from_bits<T>(mask, repeatTimes, true, "Gather");
    require_footprint<T>(l, 1, dstRepStride, dst, "Gather", "destination");
    for (uint32_t r = 0; r < l.repeats; ++r)
        for (uint32_t lane = 0; lane < l.lanes_per_repeat; ++lane) {
            if (!l.active(r, lane)) continue;
            const uint64_t o = uint64_t(r) * l.lanes_per_repeat + lane;
            require_element(srcOffsetLocal, o, "Gather", "offset");
            dst.data()[lane_index<T>(r, lane, 1, dstRepStride)] = gather_one(src, uint64_t(srcBaseAddr) + srcOffsetLocal.data()[o], "Gather");
        }
    record_vector<T>("Gather", uint64_t(l.repeats) * l.lanes_per_repeat, dst.data(), src.data(), srcOffsetLocal.data());
}

}  // namespace AscendC

namespace ascendopt_twin::detail {

// A 32-byte block at `p` inside the UB, for the address-list form of TransDataTo5HD.
ASCENDOPT_TWIN_FN inline uint8_t* ub_block(uint64_t address, const char* which) {
    auto* p = reinterpret_cast<uint8_t*>(address);
    const uint64_t off = uint64_t(p - ub_base());
    if (p < ub_base() || off + 32 > ub_size())
        fail(ErrorKind::run_failed, "TransDataTo5HD",
             std::string(which) + " address " + str(address) + " is not a 32-byte block inside the UB; pass LocalTensor::GetPhyAddr() values");
    if (off % 32 != 0)
        fail(ErrorKind::run_failed, "TransDataTo5HD", std::string(which) + " at UB offset " + str(off) + " is not 32-byte aligned");
    return p;
}

// TransDataTo5HD on 16 destination and 16 source blocks (their UB addresses), repeat by repeat
// (the addresses advance dstRepStride / srcRepStride blocks per repeat when repeatTimes > 1).
//  16-bit: destination block j element i = source block i element j (a 16 x 16 transpose);
//  32-bit: loop j of 8 takes element j of the 16 source blocks; the first 8 values fill
//          destination block 2j, the last 8 block 2j + 1;
//   8-bit: loop j of 16 takes element j (srcHighHalf: 16 + j) of the 16 source blocks and fills
//          the low (dstHighHalf: high) 16 bytes of destination block j.
template <class T>
ASCENDOPT_TWIN_FN void trans_5hd(uint8_t* const dst[16], uint8_t* const src[16], const AscendC::TransDataTo5HDParams& p) {
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4, "TransDataTo5HD takes 8-, 16- or 32-bit elements");
    const uint32_t repeats = p.repeatTimes;
    for (uint32_t r = 0; r < repeats; ++r) {
        const uint64_t doff = repeats > 1 ? uint64_t(r) * p.dstRepStride * 32 : 0;
        const uint64_t soff = repeats > 1 ? uint64_t(r) * p.srcRepStride * 32 : 0;
        T in[16][32 / sizeof(T)];
        for (int i = 0; i < 16; ++i) ascendopt_twin::raw_copy(in[i], ub_block(uint64_t(src[i] + soff), "source"), 32);
        uint8_t* out[16];
        for (int j = 0; j < 16; ++j) out[j] = ub_block(uint64_t(dst[j] + doff), "destination");
        if constexpr (sizeof(T) == 2) {
            for (int j = 0; j < 16; ++j)
                for (int i = 0; i < 16; ++i) ascendopt_twin::raw_copy(out[j] + i * 2, &in[i][j], 2);
        } else if constexpr (sizeof(T) == 4) {
            for (int j = 0; j < 8; ++j)
                for (int i = 0; i < 16; ++i) ascendopt_twin::raw_copy(out[2 * j + i / 8] + (i % 8) * 4, &in[i][j], 4);
        } else {
            const int from = p.srcHighHalf ? 16 : 0, to = p.dstHighHalf ? 16 : 0;
            for (int j = 0; j < 16; ++j)
                for (int i = 0; i < 16; ++i) out[j][to + i] = uint8_t(in[i][from + j]);
        }
    }
    account_vector("TransDataTo5HD", uint64_t(repeats) * 512, dst[0], src[0]);
}

}  // namespace ascendopt_twin::detail

namespace AscendC {

template <class T>
ASCENDOPT_TWIN_FN void TransDataTo5HD(const LocalTensor<T> (&dstLocalList)[NCHW_CONV_ADDR_LIST_SIZE],
                                      const LocalTensor<T> (&srcLocalList)[NCHW_CONV_ADDR_LIST_SIZE], const TransDataTo5HDParams& p) {
    uint8_t* dst[16];
    uint8_t* src[16];
    const uint64_t last = p.repeatTimes > 1 ? uint64_t(p.repeatTimes - 1) : 0;
    for (int i = 0; i < 16; ++i) {
        ascendopt_twin::detail::require_count((last * p.dstRepStride * 32 + 32) / sizeof(T), dstLocalList[i], "TransDataTo5HD", "destination");
        ascendopt_twin::detail::require_count((last * p.srcRepStride * 32 + 32) / sizeof(T), srcLocalList[i], "TransDataTo5HD", "source");
        dst[i] = reinterpret_cast<uint8_t*>(dstLocalList[i].data());
        src[i] = reinterpret_cast<uint8_t*>(srcLocalList[i].data());
    }
    ascendopt_twin::detail::trans_5hd<T>(dst, src, p);
}
// Address-list form: the UB addresses of the blocks (LocalTensor::GetPhyAddr() as integers).
template <class T>
ASCENDOPT_TWIN_FN void TransDataTo5HD(const uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE], const uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                                      const TransDataTo5HDParams& p) {
    uint8_t* dst[16];
    uint8_t* src[16];
    for (int i = 0; i < 16; ++i) {
        dst[i] = reinterpret_cast<uint8_t*>(dstList[i]);
        src[i] = reinterpret_cast<uint8_t*>(srcList[i]);
    }
    ascendopt_twin::detail::trans_5hd<T>(dst, src, p);
}

// RepeatReduceSum: the sum of the first `mask` lanes of each repeat (source blocks srcBlkStride
// apart, repeats srcRepStride blocks apart) into dst[r * dstRepStride]; dstBlkStride is
// documented as unused. Sums are exact and rounded once (a half sum saturates at +-65504, as
// documented). A srcBlkStride of 0 reads contiguous blocks (stride 1), not one block eight
// times: the published normalizations (rms_norm, add_rms_norm_quant) reduce a full 64-lane
// repeat with RepeatReduceSum(..., 0, 0, 1, 1) on the 910B where their other SoCs' branch calls
// WholeReduceSum with srcBlkStride 1, and the literal reading makes them 0.3-3% wrong on every
// row, which shipped operators are not (docs/twin.md "Semantic choices").
template <class T, bool isSetMask = true>
ASCENDOPT_TWIN_FN void RepeatReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTimes, const int32_t mask,
                                       const int32_t dstBlkStride, const int32_t srcBlkStride, const int32_t dstRepStride,
                                       const int32_t srcRepStride) {
    using namespace ascendopt_twin::detail;
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "RepeatReduceSum takes half or float");
    (void)dstBlkStride;
    const int32_t blkStride = srcBlkStride == 0 ? 1 : srcBlkStride;
    const Lanes l = lanes_from_count<T>(uint64_t(mask), uint32_t(repeatTimes), isSetMask, "RepeatReduceSum");
    require_footprint<T>(l, uint32_t(blkStride), uint32_t(srcRepStride), src, "RepeatReduceSum", "source");
    for (uint32_t r = 0; r < l.repeats; ++r) {
        double sum = 0;
        for (uint32_t lane = 0; lane < l.lanes_per_repeat; ++lane)
            if (l.active(r, lane)) sum += double(float(src.data()[lane_index<T>(r, lane, uint32_t(blkStride), uint32_t(srcRepStride))]));
        if constexpr (std::is_same_v<T, half>) sum = sum > 65504.0 ? 65504.0 : (sum < -65504.0 ? -65504.0 : sum);
        const uint64_t at = uint64_t(r) * uint32_t(dstRepStride);
        require_element(dst, at, "RepeatReduceSum", "destination");
        dst.data()[at] = static_cast<T>(static_cast<float>(sum));
    }
    record_vector<T>("RepeatReduceSum", uint64_t(l.repeats) * l.lanes_per_repeat, dst.data(), src.data());
}

}  // namespace AscendC

namespace ascendopt_twin::detail {

// dst[i] = f(dst[i], src0[i], src1[i]) in float, rounded once; count form.
template <class T, class U, class F>
ASCENDOPT_TWIN_FN void ternary_count(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& src0,
                                     const AscendC::LocalTensor<U>& src1, int32_t count, F f) {
    if (count < 0) fail(ErrorKind::run_failed, api, "negative count " + std::to_string(count));
    require_count(uint64_t(count), dst, api, "destination");
    require_count(uint64_t(count), src0, api, "first source");
    require_count(uint64_t(count), src1, api, "second source");
    for (int32_t i = 0; i < count; ++i)
        dst.data()[i] = static_cast<T>(f(float(dst.data()[i]), float(src0.data()[i]), float(src1.data()[i])));
    record_vector<T>(api, uint64_t(count), dst.data(), src0.data(), src1.data());
}

// The mask forms: lanes of the wider type, each operand at its own strides.
template <class T, class U, class F>
ASCENDOPT_TWIN_FN void ternary_masked(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& src0,
                                      const AscendC::LocalTensor<U>& src1, const Lanes& l, const AscendC::BinaryRepeatParams& p, F f) {
    require_footprint<T>(l, p.dstBlkStride, p.dstRepStride, dst, api, "destination");
    require_footprint<U>(l, p.src0BlkStride, p.src0RepStride, src0, api, "first source");
    require_footprint<U>(l, p.src1BlkStride, p.src1RepStride, src1, api, "second source");
    for (uint32_t r = 0; r < l.repeats; ++r)
        for (uint32_t lane = 0; lane < l.lanes_per_repeat; ++lane) {
            if (!l.active(r, lane)) continue;
            T& d = dst.data()[lane_index<T>(r, lane, p.dstBlkStride, p.dstRepStride)];
            d = static_cast<T>(f(float(d), float(src0.data()[lane_index<U>(r, lane, p.src0BlkStride, p.src0RepStride)]),
                                 float(src1.data()[lane_index<U>(r, lane, p.src1BlkStride, p.src1RepStride)])));
        }
    record_vector<T>(api, uint64_t(l.repeats) * l.lanes_per_repeat, dst.data(), src0.data(), src1.data());
}

struct FusedMulAddOp {
    ASCENDOPT_TWIN_FN float operator()(float d, float a, float b) const { return a * d + b; }
};
struct MulAddDstOp {
    ASCENDOPT_TWIN_FN float operator()(float d, float a, float b) const { return a * b + d; }
};

}  // namespace ascendopt_twin::detail

namespace AscendC {

// FusedMulAdd: dst = src0 * dst + src1, half or float.
template <class T>
ASCENDOPT_TWIN_FN void FusedMulAdd(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const int32_t& count) {
    ascendopt_twin::detail::ternary_count("FusedMulAdd", dst, src0, src1, count, ascendopt_twin::detail::FusedMulAddOp{});
}
template <class T, bool isSetMask = true>
ASCENDOPT_TWIN_FN void FusedMulAdd(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint64_t mask,
                                   const uint8_t repeatTimes, const BinaryRepeatParams& p) {
    const auto l = ascendopt_twin::detail::lanes_from_count<T>(mask, repeatTimes, isSetMask, "FusedMulAdd");
    ascendopt_twin::detail::ternary_masked("FusedMulAdd", dst, src0, src1, l, p, ascendopt_twin::detail::FusedMulAddOp{});
}
template <class T, bool isSetMask = true>
ASCENDOPT_TWIN_FN void FusedMulAdd(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const uint64_t mask[],
                                   const uint8_t repeatTimes, const BinaryRepeatParams& p) {
    const auto l = ascendopt_twin::detail::lanes_from_bits<T>(mask, repeatTimes, isSetMask, "FusedMulAdd");
    ascendopt_twin::detail::ternary_masked("FusedMulAdd", dst, src0, src1, l, p, ascendopt_twin::detail::FusedMulAddOp{});
}

// MulAddDst: dst = src0 * src1 + dst; T = U (half, float) or float over half sources.
template <class T, class U, bool isSetMask = true>
ASCENDOPT_TWIN_FN void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1, const int32_t& count) {
    ascendopt_twin::detail::require_axpy_types<T, U>();
    ascendopt_twin::detail::ternary_count("MulAddDst", dst, src0, src1, count, ascendopt_twin::detail::MulAddDstOp{});
}
template <class T, class U, bool isSetMask = true>
ASCENDOPT_TWIN_FN void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1, uint64_t mask,
                                 const uint8_t repeatTimes, const BinaryRepeatParams& p) {
    ascendopt_twin::detail::require_axpy_types<T, U>();
    using W = std::conditional_t<(sizeof(T) > sizeof(U)), T, U>;
    const auto l = ascendopt_twin::detail::lanes_from_count<W>(mask, repeatTimes, isSetMask, "MulAddDst");
    ascendopt_twin::detail::ternary_masked("MulAddDst", dst, src0, src1, l, p, ascendopt_twin::detail::MulAddDstOp{});
}
template <class T, class U, bool isSetMask = true>
ASCENDOPT_TWIN_FN void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1, const uint64_t mask[],
                                 const uint8_t repeatTimes, const BinaryRepeatParams& p) {
    ascendopt_twin::detail::require_axpy_types<T, U>();
    using W = std::conditional_t<(sizeof(T) > sizeof(U)), T, U>;
    const auto l = ascendopt_twin::detail::lanes_from_bits<W>(mask, repeatTimes, isSetMask, "MulAddDst");
    ascendopt_twin::detail::ternary_masked("MulAddDst", dst, src0, src1, l, p, ascendopt_twin::detail::MulAddDstOp{});
}

}  // namespace AscendC
