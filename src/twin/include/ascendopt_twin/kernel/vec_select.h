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

// GatherMask's walk over src0 on the 910B: `repeats` repeats, rep_stride blocks apart, each of
// `per_repeat` elements whose 32-byte blocks lie blk_stride blocks apart (a repeat may hold more
// elements than one 256-byte repeat's lanes: counter mode's mask). Packs the elements for which
// keep(repeat, element of the repeat) holds at the front of dst; returns how many.
template <class T, class Keep>
ASCENDOPT_TWIN_FN uint64_t gather_lanes(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0, uint32_t repeats,
                                        uint32_t per_repeat, uint32_t blk_stride, uint32_t rep_stride, Keep keep) {
    uint64_t out = 0;
    for (uint32_t r = 0; r < repeats; ++r)
        for (uint32_t e = 0; e < per_repeat; ++e) {
            if (!keep(r, e)) continue;
            const uint64_t s = lane_index<T>(r, e, blk_stride, rep_stride);
            if (s >= src0.extent()) check_ub_access("GatherMask", "source", src0.data(), (s + 1) * sizeof(T), uint64_t(src0.extent()) * sizeof(T));
            if (out >= dst.extent()) check_ub_access("GatherMask", "destination", dst.data(), (out + 1) * sizeof(T), uint64_t(dst.extent()) * sizeof(T));
            dst.data()[out++] = src0.data()[s];
        }
    record_vector<T>("GatherMask", uint64_t(repeats) * per_repeat, dst.data(), src0.data());
    return out;
}

// The elements of each repeat GatherMask reads: every lane of a 256-byte repeat in normal
// mode; in counter mode (reduceMode) `mask` of them, one repeat's lanes or more. The 910B takes
// the documented first configuration of counter mode, mask elements in each of repeatTimes
// repeats; the second (mask elements in all, repeatTimes ignored) is the inference cores'.
template <class T>
ASCENDOPT_TWIN_FN uint32_t gather_mask_elements(bool reduce_mode, uint32_t mask) {
    if (!reduce_mode) return repeat_elems<T>();
    if (mask == 0) fail(ErrorKind::run_failed, "GatherMask", "mask 0 selects no element in reduceMode");
    return mask;
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
// Built-in patterns, by an element's place in its repeat: 1 even, 2 odd, 3..6 place%4 == 0..3,
// 7 all. reduceMode (counter mode): `mask` elements in each of the repeatTimes repeats, which
// may exceed one repeat's lanes (gather_v3 takes a whole line in one repeat of a 2- or 4-element
// pattern; moe_soft_max_topk 64 of each of its repeats; angle_v2 5632 in one repeat). Without
// reduceMode every lane of every repeat. Repeats start src0RepeatStride blocks apart.
template <class T>
ASCENDOPT_TWIN_FN void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t src1Pattern, const bool reduceMode,
                const uint32_t mask, const GatherMaskParams& p, uint64_t& rsvdCnt) {
    using namespace ascendopt_twin::detail;
    const uint32_t per_repeat = gather_mask_elements<T>(reduceMode, mask);
    if (src1Pattern < 1 || src1Pattern > 7)
        ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, "GatherMask", "pattern " + str(src1Pattern) + " is not 1..7");
    rsvdCnt = gather_lanes(dst, src0, p.repeatTimes, per_repeat, p.src0BlockStride, p.src0RepeatStride,
                           [&](uint32_t, uint32_t e) ASCENDOPT_TWIN_FN {
                               switch (src1Pattern) {
                                   case 1: return e % 2 == 0;
                                   case 2: return e % 2 == 1;
                                   case 7: return true;
                                   default: return e % 4 == uint32_t(src1Pattern - 3);
                               }
                           });
}

// Tensor pattern: within a repeat the bits are consumed one per element (bit e keeps element e,
// past one repeat's lanes in counter mode); each repeat's bits start src1RepeatStride 32-byte
// blocks after the previous repeat's (masked_select_v3 counts its elements in one repeat, its
// pattern one bit per element built by CompareScalar).
template <class T, class U>
ASCENDOPT_TWIN_FN void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<U>& src1Pattern,
                const bool reduceMode, const uint32_t mask, const GatherMaskParams& p, uint64_t& rsvdCnt) {
    using namespace ascendopt_twin::detail;
    const uint32_t per_repeat = gather_mask_elements<T>(reduceMode, mask);
    rsvdCnt = gather_lanes(dst, src0, p.repeatTimes, per_repeat, p.src0BlockStride, p.src0RepeatStride,
                           [&](uint32_t r, uint32_t e) ASCENDOPT_TWIN_FN {
                               return read_bit(src1Pattern, uint32_t(uint64_t(r) * p.src1RepeatStride * 256u + e), "GatherMask");
                           });
}

}  // namespace AscendC
