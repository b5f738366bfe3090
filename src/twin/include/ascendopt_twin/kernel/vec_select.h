// Compare / CompareScalar (one result bit per element, packed little-endian into bytes),
// Select (bit set -> first source), GatherMask and CreateVecIndex.
#pragma once

#include "ascendopt_twin/attrs.h"

#include "ascendopt_twin/kernel/vec.h"

namespace AscendC {

struct GatherMaskParams {
    uint8_t src0BlockStride = 1;
    uint16_t repeatTimes = 1;
    uint16_t src0RepeatStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepeatStride = 0;
    GatherMaskParams() = default;
    ASCENDOPT_TWIN_FN GatherMaskParams(uint8_t bs, uint16_t rt, uint16_t s0r, uint8_t s1r)
        ASCENDOPT_TWIN_FN : src0BlockStride(bs), repeatTimes(rt), src0RepeatStride(s0r), src1RepeatStride(s1r) {}
};

}  // namespace AscendC

namespace ascendopt_twin::detail {

template <class C>
ASCENDOPT_TWIN_FN bool compare(C a, C b, AscendC::CMPMODE mode) {
    switch (mode) {
        case AscendC::CMPMODE::LT: return a < b;
        case AscendC::CMPMODE::GT: return a > b;
        case AscendC::CMPMODE::EQ: return a == b;
        case AscendC::CMPMODE::LE: return a <= b;
        case AscendC::CMPMODE::GE: return a >= b;
        default: return a != b;
    }
}

template <class U, class F>
ASCENDOPT_TWIN_FN void write_bits(const AscendC::LocalTensor<U>& dst, uint32_t count, const char* api, F bit_of) {
    const uint64_t bytes = (uint64_t(count) + 7) / 8;
    check_ub_access(api, "destination", dst.data(), bytes, uint64_t(dst.extent()) * sizeof(U));
    auto* out = reinterpret_cast<uint8_t*>(dst.data());
    for (uint64_t i = 0; i < bytes; ++i) out[i] = 0;
    for (uint32_t i = 0; i < count; ++i)
        if (bit_of(i)) out[i / 8] = uint8_t(out[i / 8] | (1u << (i % 8)));
}

template <class U>
ASCENDOPT_TWIN_FN bool read_bit(const AscendC::LocalTensor<U>& mask, uint32_t i, const char* api) {
    const uint64_t byte = i / 8;
    if (byte >= uint64_t(mask.extent()) * sizeof(U))
        check_ub_access(api, "selection mask", mask.data(), byte + 1, uint64_t(mask.extent()) * sizeof(U));
    return (reinterpret_cast<const uint8_t*>(mask.data())[byte] >> (i % 8)) & 1u;
}

// Packs the lanes of src0 for which keep(repeat, lane) holds at the front of dst; returns the count.
template <class T, class Keep>
ASCENDOPT_TWIN_FN uint64_t gather_lanes(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0, uint64_t total,
                      uint32_t blk_stride, uint32_t rep_stride, Keep keep) {
    const uint32_t epr = repeat_elems<T>();
    uint64_t out = 0;
    for (uint64_t i = 0; i < total; ++i) {
        const uint32_t r = uint32_t(i / epr), lane = uint32_t(i % epr);
        if (!keep(r, lane)) continue;
        const uint64_t s = lane_index<T>(r, lane, blk_stride, rep_stride);
        if (s >= src0.extent()) check_ub_access("GatherMask", "source", src0.data(), (s + 1) * sizeof(T), uint64_t(src0.extent()) * sizeof(T));
        if (out >= dst.extent()) check_ub_access("GatherMask", "destination", dst.data(), (out + 1) * sizeof(T), uint64_t(dst.extent()) * sizeof(T));
        dst.data()[out++] = src0.data()[s];
    }
    record_vector<T>("GatherMask", total, dst.data(), src0.data());
    return out;
}

// The lanes of each repeat GatherMask reads (see GatherMask): `mask` of them in reduceMode
// when mask fits one repeat, else all.
template <class T>
ASCENDOPT_TWIN_FN uint32_t gather_mask_lanes(bool reduce_mode, uint32_t mask) {
    const uint32_t epr = repeat_elems<T>();
    if (!reduce_mode || mask > epr) return epr;
    if (mask == 0) fail(ErrorKind::run_failed, "GatherMask", "mask 0 selects no element in reduceMode");
    return mask;
}
// The elements GatherMask walks: repeatTimes whole repeats, or in reduceMode with a mask larger
// than a repeat the first `mask` elements.
template <class T>
ASCENDOPT_TWIN_FN uint64_t gather_mask_total(bool reduce_mode, uint32_t mask, uint32_t repeat_times) {
    if (reduce_mode && mask > repeat_elems<T>()) return mask;
    return uint64_t(repeat_times) * repeat_elems<T>();
}

template <class T, class U>
ASCENDOPT_TWIN_FN void compare_scalar_masked(const AscendC::LocalTensor<U>& dst, const AscendC::LocalTensor<T>& src0, T scalar,
                                             AscendC::CMPMODE mode, const Lanes& l, const AscendC::UnaryRepeatParams& p) {
    require_footprint<T>(l, p.srcBlkStride, p.srcRepStride, src0, "CompareScalar", "source");
    using C = compute_t<T>;
    const C s = C(scalar);
    const uint32_t lanes = l.lanes_per_repeat;
    write_bits(dst, l.repeats * lanes, "CompareScalar", [&](uint32_t i) ASCENDOPT_TWIN_FN {
        const uint32_t r = i / lanes, lane = i % lanes;
        return l.active(r, lane) && compare<C>(C(src0.data()[lane_index<T>(r, lane, p.srcBlkStride, p.srcRepStride)]), s, mode);
    });
    record_vector<T>("CompareScalar", uint64_t(l.repeats) * lanes, dst.data(), src0.data());
}

}  // namespace ascendopt_twin::detail

namespace AscendC {

template <class T, class U>
ASCENDOPT_TWIN_FN void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE mode, uint32_t count) {
    using namespace ascendopt_twin::detail;
    require_count(count, src0, "Compare", "first source");
    require_count(count, src1, "Compare", "second source");
    using C = compute_t<T>;
    write_bits(dst, count, "Compare", [&](uint32_t i) ASCENDOPT_TWIN_FN { return compare<C>(C(src0.data()[i]), C(src1.data()[i]), mode); });
    record_vector<T>("Compare", count, dst.data(), src0.data(), src1.data());
}

template <class T, class U>
ASCENDOPT_TWIN_FN void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const ascendopt_twin::detail::same_t<T> scalar,
                   CMPMODE mode, uint32_t count) {
    using namespace ascendopt_twin::detail;
    require_count(count, src0, "CompareScalar", "source");
    using C = compute_t<T>;
    const C s = C(scalar);
    write_bits(dst, count, "CompareScalar", [&](uint32_t i) ASCENDOPT_TWIN_FN { return compare<C>(C(src0.data()[i]), s, mode); });
    record_vector<T>("CompareScalar", count, dst.data(), src0.data());
}

// Mask forms. On the 910B the mask is documented as reserved: every lane of every repeat is
// compared, and the result bits are contiguous (bit r * lanes + lane).
template <class T, class U, bool isSetMask = true>
ASCENDOPT_TWIN_FN void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE mode,
                               const uint64_t mask, const uint8_t repeatTimes, const BinaryRepeatParams& p) {
    using namespace ascendopt_twin::detail;
    (void)mask;
    const Lanes l = lanes_from_count<T>(repeat_elems<T>(), repeatTimes, true, "Compare");
    require_footprint<T>(l, p.src0BlkStride, p.src0RepStride, src0, "Compare", "first source");
    require_footprint<T>(l, p.src1BlkStride, p.src1RepStride, src1, "Compare", "second source");
    using C = compute_t<T>;
    const uint32_t epr = repeat_elems<T>();
    write_bits(dst, uint32_t(repeatTimes) * epr, "Compare", [&](uint32_t i) ASCENDOPT_TWIN_FN {
        const uint32_t r = i / epr, lane = i % epr;
        return compare<C>(C(src0.data()[lane_index<T>(r, lane, p.src0BlkStride, p.src0RepStride)]),
                          C(src1.data()[lane_index<T>(r, lane, p.src1BlkStride, p.src1RepStride)]), mode);
    });
    record_vector<T>("Compare", uint64_t(repeatTimes) * epr, dst.data(), src0.data(), src1.data());
}
template <class T, class U, bool isSetMask = true>
ASCENDOPT_TWIN_FN void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE mode,
                               const uint64_t mask[], const uint8_t repeatTimes, const BinaryRepeatParams& p) {
    Compare<T, U, isSetMask>(dst, src0, src1, mode, mask[0], repeatTimes, p);
}

// CompareScalar, mask forms: repeat r compares its active lanes (at the source's strides) and
// writes bit r * lanes + lane; the bits of lanes the mask leaves out are written 0.
template <class T, class U, bool isSetMask = true>
ASCENDOPT_TWIN_FN void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const ascendopt_twin::detail::same_t<T> scalar,
                                     CMPMODE mode, const uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& p) {
    using namespace ascendopt_twin::detail;
    const Lanes l = lanes_from_count<T>(mask, repeatTimes, isSetMask, "CompareScalar");
    compare_scalar_masked(dst, src0, scalar, mode, l, p);
}
template <class T, class U, bool isSetMask = true>
ASCENDOPT_TWIN_FN void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const ascendopt_twin::detail::same_t<T> scalar,
                                     CMPMODE mode, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& p) {
    using namespace ascendopt_twin::detail;
    const Lanes l = lanes_from_bits<T>(mask, repeatTimes, isSetMask, "CompareScalar");
    compare_scalar_masked(dst, src0, scalar, mode, l, p);
}

// dst[i] = bit i of selMask ? src0[i] : src1[i].
template <class T, class U>
ASCENDOPT_TWIN_FN void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
            SELMODE mode, uint32_t count) {
    using namespace ascendopt_twin::detail;
    (void)mode;
    require_count(count, dst, "Select", "destination");
    require_count(count, src0, "Select", "first source");
    require_count(count, src1, "Select", "second source");
    for (uint32_t i = 0; i < count; ++i) dst.data()[i] = read_bit(selMask, i, "Select") ? src0.data()[i] : src1.data()[i];
    record_vector<T>("Select", count, dst.data(), src0.data(), src1.data());
}

// dst[i] = bit i of selMask ? src0[i] : scalar (VSEL_TENSOR_SCALAR_MODE).
template <class T, class U>
ASCENDOPT_TWIN_FN void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            const ascendopt_twin::detail::same_t<T> scalar, SELMODE mode, uint32_t count) {
    using namespace ascendopt_twin::detail;
    (void)mode;
    require_count(count, dst, "Select", "destination");
    require_count(count, src0, "Select", "source");
    for (uint32_t i = 0; i < count; ++i) dst.data()[i] = read_bit(selMask, i, "Select") ? src0.data()[i] : T(scalar);
    record_vector<T>("Select", count, dst.data(), src0.data());
}

}  // namespace AscendC

namespace ascendopt_twin::detail {

// Select, mask forms: lane `lane` of repeat r picks src0 where its selMask bit is set. Mode
// VSEL_CMPMASK_SPR reuses the first repeat's bits on every repeat; the tensor modes read the
// bits on, lanes-per-repeat bits per repeat. Lanes the mask leaves out keep dst.
template <class T, class U, class Other>
ASCENDOPT_TWIN_FN void select_masked(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& selMask,
                                     const AscendC::LocalTensor<T>& src0, Other other, AscendC::SELMODE mode, const Lanes& l,
                                     const AscendC::BinaryRepeatParams& p) {
    require_footprint<T>(l, p.dstBlkStride, p.dstRepStride, dst, "Select", "destination");
    require_footprint<T>(l, p.src0BlkStride, p.src0RepStride, src0, "Select", "first source");
    for (uint32_t r = 0; r < l.repeats; ++r)
        for (uint32_t lane = 0; lane < l.lanes_per_repeat; ++lane) {
            if (!l.active(r, lane)) continue;
            const uint32_t bit = (mode == AscendC::SELMODE::VSEL_CMPMASK_SPR ? 0 : r * l.lanes_per_repeat) + lane;
            const T a = src0.data()[lane_index<T>(r, lane, p.src0BlkStride, p.src0RepStride)];
            dst.data()[lane_index<T>(r, lane, p.dstBlkStride, p.dstRepStride)] = read_bit(selMask, bit, "Select") ? a : other(r, lane);
        }
    record_vector<T>("Select", uint64_t(l.repeats) * l.lanes_per_repeat, dst.data(), src0.data());
}

// Select between two tensors over the lanes of a mask (either mask form).
template <class T, class U>
ASCENDOPT_TWIN_FN void select_tensors(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& selMask,
                                      const AscendC::LocalTensor<T>& src0, const AscendC::LocalTensor<T>& src1, AscendC::SELMODE mode,
                                      const Lanes& l, const AscendC::BinaryRepeatParams& p) {
    require_footprint<T>(l, p.src1BlkStride, p.src1RepStride, src1, "Select", "second source");
    select_masked(dst, selMask, src0, [&](uint32_t r, uint32_t lane) ASCENDOPT_TWIN_FN {
        return src1.data()[lane_index<T>(r, lane, p.src1BlkStride, p.src1RepStride)];
    }, mode, l, p);
}

}  // namespace ascendopt_twin::detail

namespace AscendC {

template <class T, class U, bool isSetMask = true>
ASCENDOPT_TWIN_FN void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              const LocalTensor<T>& src1, SELMODE mode, uint64_t mask, uint8_t repeatTimes,
                              const BinaryRepeatParams& p) {
    using namespace ascendopt_twin::detail;
    select_tensors(dst, selMask, src0, src1, mode, lanes_from_count<T>(mask, repeatTimes, isSetMask, "Select"), p);
}
template <class T, class U, bool isSetMask = true>
ASCENDOPT_TWIN_FN void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              const LocalTensor<T>& src1, SELMODE mode, const uint64_t mask[], uint8_t repeatTimes,
                              const BinaryRepeatParams& p) {
    using namespace ascendopt_twin::detail;
    select_tensors(dst, selMask, src0, src1, mode, lanes_from_bits<T>(mask, repeatTimes, isSetMask, "Select"), p);
}
template <class T, class U, bool isSetMask = true>
ASCENDOPT_TWIN_FN void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              const ascendopt_twin::detail::same_t<T> scalar, SELMODE mode, uint64_t mask, uint8_t repeatTimes,
                              const BinaryRepeatParams& p) {
    using namespace ascendopt_twin::detail;
    const Lanes l = lanes_from_count<T>(mask, repeatTimes, isSetMask, "Select");
    select_masked(dst, selMask, src0, [&](uint32_t, uint32_t) ASCENDOPT_TWIN_FN { return T(scalar); }, mode, l, p);
}

// dst = a < b (and the other comparisons): Compare over a.GetSize() elements into a bit mask.
template <class T>
struct CompareExpr {
    const LocalTensor<T>& a;
    const LocalTensor<T>& b;
    CMPMODE mode;
    template <class U>
    ASCENDOPT_TWIN_FN void assign_to(const LocalTensor<U>& dst) const {
        Compare(dst, a, b, mode, a.GetSize());
    }
};
#define ASCENDOPT_TWIN_COMPARE_OPERATOR(OP, MODE)                                                            \
    template <class T>                                                                                       \
    ASCENDOPT_TWIN_FN CompareExpr<T> operator OP(const LocalTensor<T>& a, const LocalTensor<T>& b) {         \
        return CompareExpr<T>{a, b, CMPMODE::MODE};                                                          \
    }
ASCENDOPT_TWIN_COMPARE_OPERATOR(<, LT)
ASCENDOPT_TWIN_COMPARE_OPERATOR(>, GT)
ASCENDOPT_TWIN_COMPARE_OPERATOR(==, EQ)
ASCENDOPT_TWIN_COMPARE_OPERATOR(<=, LE)
ASCENDOPT_TWIN_COMPARE_OPERATOR(>=, GE)
ASCENDOPT_TWIN_COMPARE_OPERATOR(!=, NE)
#undef ASCENDOPT_TWIN_COMPARE_OPERATOR

// dst[i] = firstValue + i.
template <class T>
ASCENDOPT_TWIN_FN void CreateVecIndex(const LocalTensor<T>& dst, const ascendopt_twin::detail::same_t<T>& firstValue, uint32_t count) {
    using namespace ascendopt_twin::detail;
    require_count(count, dst, "CreateVecIndex", "destination");
    using C = compute_t<T>;
    for (uint32_t i = 0; i < count; ++i) dst.data()[i] = static_cast<T>(C(firstValue) + C(i));
    record_vector<T>("CreateVecIndex", count, dst.data());
}

// Keeps the elements of src0 whose pattern bit is set, packed at the front of dst.
// Built-in patterns: 1 even lanes, 2 odd lanes, 3..6 lane%4 == 0..3, 7 all lanes.
// reduceMode (counter mode): with a mask of at most one repeat's lanes, `mask` lanes of each of
// the repeatTimes repeats take part (moe_soft_max_topk gathers 64 of each of its repeats); a
// larger mask counts elements in total, repeat after repeat, and repeatTimes has no effect
// (angle_v2 gathers 5632 with repeatTimes 1). Without reduceMode every lane of every repeat.
template <class T>
ASCENDOPT_TWIN_FN void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t src1Pattern, const bool reduceMode,
                const uint32_t mask, const GatherMaskParams& p, uint64_t& rsvdCnt) {
    using namespace ascendopt_twin::detail;
    const uint32_t lanes = gather_mask_lanes<T>(reduceMode, mask);
    const uint64_t total = gather_mask_total<T>(reduceMode, mask, p.repeatTimes);
    if (src1Pattern < 1 || src1Pattern > 7)
        ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, "GatherMask", "pattern " + str(src1Pattern) + " is not 1..7");
    rsvdCnt = gather_lanes(dst, src0, total, p.src0BlockStride, p.src0RepeatStride, [&](uint32_t, uint32_t lane) ASCENDOPT_TWIN_FN {
        if (lane >= lanes) return false;
        switch (src1Pattern) {
            case 1: return lane % 2 == 0;
            case 2: return lane % 2 == 1;
            case 7: return true;
            default: return lane % 4 == uint32_t(src1Pattern - 3);
        }
    });
}

// Tensor pattern: bit i of src1Pattern keeps lane i. Repeat by repeat (normal mode, or
// reduceMode with a mask of at most one repeat's lanes) each repeat's bits start
// src1RepeatStride 32-byte blocks after the previous repeat's. In counter mode (reduceMode
// with a mask that counts elements in total) the pattern is one bit string over those
// elements: element i of the walk is kept by bit i, whatever src1RepeatStride says
// (masked_select_v3 builds its pattern with CompareScalar, one bit per element, and passes
// src1RepeatStride 1).
template <class T, class U>
ASCENDOPT_TWIN_FN void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<U>& src1Pattern,
                const bool reduceMode, const uint32_t mask, const GatherMaskParams& p, uint64_t& rsvdCnt) {
    using namespace ascendopt_twin::detail;
    const uint32_t lanes = gather_mask_lanes<T>(reduceMode, mask);
    const uint64_t total = gather_mask_total<T>(reduceMode, mask, p.repeatTimes);
    const bool counts_in_total = reduceMode && mask > repeat_elems<T>();
    rsvdCnt = gather_lanes(dst, src0, total, p.src0BlockStride, p.src0RepeatStride, [&](uint32_t r, uint32_t lane) ASCENDOPT_TWIN_FN {
        const uint64_t bit = counts_in_total ? uint64_t(r) * repeat_elems<T>() + lane : uint64_t(r) * p.src1RepeatStride * 256u + lane;
        return lane < lanes && read_bit(src1Pattern, uint32_t(bit), "GatherMask");
    });
}

}  // namespace AscendC
