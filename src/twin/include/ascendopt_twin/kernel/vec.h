// The vector engine shared by every vector API: which lanes of which repeats an
// instruction touches (count form, mask forms, counter mode), where each lane lives in a
// strided tensor, and bounds checks of that footprint before anything is written.
//
// One repeat covers 256 bytes: 8 blocks of 32 bytes, 256/sizeof(T) lanes. Block strides
// and repeat strides are in 32-byte blocks. 16-bit floats are computed in float and
// rounded to nearest even on store.
#pragma once

#include "ascendopt_twin/attrs.h"

#include <algorithm>
#include <string>

#include "ascendopt_twin/kernel/tensor.h"

namespace AscendC {

struct UnaryRepeatParams {
    uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint16_t srcBlkStride = DEFAULT_BLK_STRIDE;
    uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t srcRepStride = DEFAULT_REPEAT_STRIDE;
    UnaryRepeatParams() = default;
    ASCENDOPT_TWIN_FN UnaryRepeatParams(uint16_t db, uint16_t sb, uint8_t dr, uint8_t sr)
        ASCENDOPT_TWIN_FN : dstBlkStride(db), srcBlkStride(sb), dstRepStride(dr), srcRepStride(sr) {}
};

struct BinaryRepeatParams {
    uint8_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
    BinaryRepeatParams() = default;
    ASCENDOPT_TWIN_FN BinaryRepeatParams(uint8_t db, uint8_t s0b, uint8_t s1b, uint8_t dr, uint8_t s0r, uint8_t s1r)
        ASCENDOPT_TWIN_FN : dstBlkStride(db), src0BlkStride(s0b), src1BlkStride(s1b), dstRepStride(dr), src0RepStride(s0r), src1RepStride(s1r) {}
};

template <class T, MaskMode mode = MaskMode::NORMAL>
ASCENDOPT_TWIN_FN inline void SetVectorMask(uint64_t maskHigh, uint64_t maskLow) {
    auto& m = ascendopt_twin::mask_state();
    m.hi = maskHigh;
    m.lo = maskLow;
    m.counter_mode = m.counter_mode || mode == MaskMode::COUNTER;
}
template <class T, MaskMode mode = MaskMode::NORMAL>
ASCENDOPT_TWIN_FN inline void SetVectorMask(int32_t len) {
    auto& m = ascendopt_twin::mask_state();
    if (m.counter_mode || mode == MaskMode::COUNTER) {
        m.lo = uint64_t(len);
        m.hi = 0;
        return;
    }
    m.lo = len >= 64 ? ~0ull : ((1ull << len) - 1);
    m.hi = len >= 128 ? ~0ull : (len > 64 ? ((1ull << (len - 64)) - 1) : 0);
}
ASCENDOPT_TWIN_FN inline void SetMaskCount() { ascendopt_twin::mask_state().counter_mode = true; }
ASCENDOPT_TWIN_FN inline void SetMaskNorm() { ascendopt_twin::mask_state().counter_mode = false; }
ASCENDOPT_TWIN_FN inline void ResetMask() {
    auto& m = ascendopt_twin::mask_state();
    m.lo = m.hi = ~0ull;
}

}  // namespace AscendC

namespace ascendopt_twin::detail {

template <class T> struct ComputeType { using type = T; };
template <> struct ComputeType<Half> { using type = float; };
template <> struct ComputeType<BFloat16> { using type = float; };
template <> struct ComputeType<int8_t> { using type = int32_t; };
template <> struct ComputeType<uint8_t> { using type = int32_t; };
template <> struct ComputeType<int16_t> { using type = int32_t; };
template <> struct ComputeType<uint16_t> { using type = int32_t; };
template <class T> using compute_t = typename ComputeType<T>::type;

// Makes a parameter a non-deduced context, so a float literal can be the scalar of a half op.
template <class T> struct Identity { using type = T; };
template <class T> using same_t = typename Identity<T>::type;

template <class T> constexpr uint32_t block_elems() { return 32 / sizeof(T); }
template <class T> constexpr uint32_t repeat_elems() { return 256 / sizeof(T); }

// The lanes one mask-form instruction touches.
struct Lanes {
    uint64_t lo = 0, hi = 0;  // normal mode: lane bit mask
    uint32_t repeats = 0;
    uint32_t lanes_per_repeat = 0;
    bool counter = false;  // counter mode: the first `count` elements, repeat after repeat
    uint64_t count = 0;

    ASCENDOPT_TWIN_FN bool active(uint32_t r, uint32_t lane) const {
        if (counter) return uint64_t(r) * lanes_per_repeat + lane < count;
        return lane < 64 ? ((lo >> lane) & 1u) : ((hi >> (lane - 64)) & 1u);
    }
    // Highest active lane in repeat r (or -1).
    ASCENDOPT_TWIN_FN int64_t last_lane(uint32_t r) const {
        for (int64_t l = int64_t(lanes_per_repeat) - 1; l >= 0; --l)
            if (active(r, uint32_t(l))) return l;
        return -1;
    }
};

ASCENDOPT_TWIN_FN inline Lanes lanes_with_counter(uint32_t epr, const char* api) {
    (void)api;
    const auto& m = mask_state();
    Lanes l;
    l.lanes_per_repeat = epr;
    l.counter = true;
    l.count = m.lo;
    l.repeats = uint32_t((m.lo + epr - 1) / epr);
    return l;
}

// Continuous mask: the first `mask` lanes of each repeat.
template <class T>
ASCENDOPT_TWIN_FN Lanes lanes_from_count(uint64_t mask, uint32_t repeats, bool set_mask, const char* api, uint32_t epr = repeat_elems<T>()) {
    if (!set_mask && mask_state().counter_mode) return lanes_with_counter(epr, api);
    if (!set_mask) return Lanes{mask_state().lo, mask_state().hi, repeats, epr};
    if (mask_state().counter_mode) {
        Lanes l;
        l.lanes_per_repeat = epr;
        l.counter = true;
        l.count = mask;
        l.repeats = uint32_t((mask + epr - 1) / epr);
        return l;
    }
    if (mask == 0 || mask > epr)
        fail(ErrorKind::run_failed, api, "mask " + str(mask) + " must be 1.." + str(epr) + " for " + str(sizeof(T)) + "-byte elements");
    Lanes l;
    l.lo = mask >= 64 ? ~0ull : ((1ull << mask) - 1);
    l.hi = mask >= 128 ? ~0ull : (mask > 64 ? ((1ull << (mask - 64)) - 1) : 0);
    l.repeats = repeats;
    l.lanes_per_repeat = epr;
    return l;
}

// Bitwise mask: mask[0] holds lanes 0..63, mask[1] lanes 64..127.
template <class T>
ASCENDOPT_TWIN_FN Lanes lanes_from_bits(const uint64_t mask[2], uint32_t repeats, bool set_mask, const char* api) {
    if (!set_mask) return lanes_from_count<T>(0, repeats, false, api);
    const uint32_t epr = repeat_elems<T>();
    Lanes l{mask[0], epr > 64 ? mask[1] : 0, repeats, epr};
    if (l.lo == 0 && l.hi == 0) fail(ErrorKind::run_failed, api, "bit mask selects no lanes");
    return l;
}

// Where lane `lane` of repeat `r` lives, for block stride `blk` and repeat stride `rep` (blocks).
template <class T>
ASCENDOPT_TWIN_FN inline uint64_t lane_index(uint32_t r, uint32_t lane, uint32_t blk, uint32_t rep) {
    constexpr uint32_t epb = block_elems<T>();
    return (uint64_t(r) * rep + uint64_t(lane / epb) * blk) * epb + lane % epb;
}

// Checks the lanes the instruction touches against the UB buffer of tensor `t` (check_ub_access).
template <class T>
ASCENDOPT_TWIN_FN void require_footprint(const Lanes& l, uint32_t blk, uint32_t rep, const AscendC::LocalTensor<T>& t, const char* api,
                                         const char* which) {
    if (l.repeats == 0) return;
    uint64_t extent = 0;
    for (uint32_t r : {l.repeats - 1, l.repeats > 1 ? l.repeats - 2 : 0u}) {
        const int64_t last = l.last_lane(r);
        if (last >= 0) extent = std::max<uint64_t>(extent, lane_index<T>(r, uint32_t(last), blk, rep) + 1);
    }
    check_ub_access(api, which, t.data(), extent * sizeof(T), uint64_t(t.extent()) * sizeof(T));
}

// Checks `count` elements from the start of tensor `t` against its UB buffer (check_ub_access).
template <class T>
ASCENDOPT_TWIN_FN void require_count(uint64_t count, const AscendC::LocalTensor<T>& t, const char* api, const char* which) {
    check_ub_access(api, which, t.data(), count * sizeof(T), uint64_t(t.extent()) * sizeof(T));
}

template <class T>
ASCENDOPT_TWIN_FN inline void record_vector(const char* api, uint64_t elems, const void* dst, const void* src0 = nullptr,
                                             const void* src1 = nullptr) {
    account_vector(api, elems * sizeof(T), dst, src0, src1);
}

}  // namespace ascendopt_twin::detail
