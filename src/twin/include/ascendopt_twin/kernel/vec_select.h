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
    if (bytes > uint64_t(dst.GetSize()) * sizeof(U))
        fail(ErrorKind::run_failed, api,
             "result needs " + str(bytes) + " bytes of bit mask but the destination holds " + str(uint64_t(dst.GetSize()) * sizeof(U)));
    auto* out = reinterpret_cast<uint8_t*>(dst.data());
    for (uint64_t i = 0; i < bytes; ++i) out[i] = 0;
    for (uint32_t i = 0; i < count; ++i)
        if (bit_of(i)) out[i / 8] = uint8_t(out[i / 8] | (1u << (i % 8)));
}

template <class U>
ASCENDOPT_TWIN_FN bool read_bit(const AscendC::LocalTensor<U>& mask, uint32_t i, const char* api) {
    const uint64_t byte = i / 8;
    if (byte >= uint64_t(mask.GetSize()) * sizeof(U))
        fail(ErrorKind::run_failed, api, "selection mask is too short for element " + str(i));
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
        if (s >= src0.GetSize()) out_of_range("GatherMask", s, src0.GetSize());
        if (out >= dst.GetSize()) out_of_range("GatherMask", out, dst.GetSize());
        dst.data()[out++] = src0.data()[s];
    }
    record_vector<T>("GatherMask", total, dst.data(), src0.data());
    return out;
}

}  // namespace ascendopt_twin::detail

namespace AscendC {

template <class T, class U>
ASCENDOPT_TWIN_FN void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE mode, uint32_t count) {
    using namespace ascendopt_twin::detail;
    require_count<T>(count, src0.GetSize(), "Compare", "first source");
    require_count<T>(count, src1.GetSize(), "Compare", "second source");
    using C = compute_t<T>;
    write_bits(dst, count, "Compare", [&](uint32_t i) ASCENDOPT_TWIN_FN { return compare<C>(C(src0.data()[i]), C(src1.data()[i]), mode); });
    record_vector<T>("Compare", count, dst.data(), src0.data(), src1.data());
}

template <class T, class U>
ASCENDOPT_TWIN_FN void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const ascendopt_twin::detail::same_t<T> scalar,
                   CMPMODE mode, uint32_t count) {
    using namespace ascendopt_twin::detail;
    require_count<T>(count, src0.GetSize(), "CompareScalar", "source");
    using C = compute_t<T>;
    const C s = C(scalar);
    write_bits(dst, count, "CompareScalar", [&](uint32_t i) ASCENDOPT_TWIN_FN { return compare<C>(C(src0.data()[i]), s, mode); });
    record_vector<T>("CompareScalar", count, dst.data(), src0.data());
}

// dst[i] = bit i of selMask ? src0[i] : src1[i].
template <class T, class U>
ASCENDOPT_TWIN_FN void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
            SELMODE mode, uint32_t count) {
    using namespace ascendopt_twin::detail;
    (void)mode;
    require_count<T>(count, dst.GetSize(), "Select", "destination");
    require_count<T>(count, src0.GetSize(), "Select", "first source");
    require_count<T>(count, src1.GetSize(), "Select", "second source");
    for (uint32_t i = 0; i < count; ++i) dst.data()[i] = read_bit(selMask, i, "Select") ? src0.data()[i] : src1.data()[i];
    record_vector<T>("Select", count, dst.data(), src0.data(), src1.data());
}

// dst[i] = bit i of selMask ? src0[i] : scalar (VSEL_TENSOR_SCALAR_MODE).
template <class T, class U>
ASCENDOPT_TWIN_FN void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            const ascendopt_twin::detail::same_t<T> scalar, SELMODE mode, uint32_t count) {
    using namespace ascendopt_twin::detail;
    (void)mode;
    require_count<T>(count, dst.GetSize(), "Select", "destination");
    require_count<T>(count, src0.GetSize(), "Select", "source");
    for (uint32_t i = 0; i < count; ++i) dst.data()[i] = read_bit(selMask, i, "Select") ? src0.data()[i] : T(scalar);
    record_vector<T>("Select", count, dst.data(), src0.data());
}

// dst[i] = firstValue + i.
template <class T>
ASCENDOPT_TWIN_FN void CreateVecIndex(const LocalTensor<T>& dst, const ascendopt_twin::detail::same_t<T>& firstValue, uint32_t count) {
    using namespace ascendopt_twin::detail;
    require_count<T>(count, dst.GetSize(), "CreateVecIndex", "destination");
    using C = compute_t<T>;
    for (uint32_t i = 0; i < count; ++i) dst.data()[i] = static_cast<T>(C(firstValue) + C(i));
    record_vector<T>("CreateVecIndex", count, dst.data());
}

// Keeps the elements of src0 whose pattern bit is set, packed at the front of dst.
// Built-in patterns: 1 even lanes, 2 odd lanes, 3..6 lane%4 == 0..3, 7 all lanes.
template <class T>
ASCENDOPT_TWIN_FN void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t src1Pattern, const bool reduceMode,
                const uint32_t mask, const GatherMaskParams& p, uint64_t& rsvdCnt) {
    using namespace ascendopt_twin::detail;
    const uint64_t total = reduceMode ? mask : uint64_t(p.repeatTimes) * repeat_elems<T>();
    if (src1Pattern < 1 || src1Pattern > 7)
        ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, "GatherMask", "pattern " + str(src1Pattern) + " is not 1..7");
    rsvdCnt = gather_lanes(dst, src0, total, p.src0BlockStride, p.src0RepeatStride, [&](uint32_t, uint32_t lane) ASCENDOPT_TWIN_FN {
        switch (src1Pattern) {
            case 1: return lane % 2 == 0;
            case 2: return lane % 2 == 1;
            case 7: return true;
            default: return lane % 4 == uint32_t(src1Pattern - 3);
        }
    });
}

// Tensor pattern: bit i of src1Pattern (per repeat, src1RepeatStride blocks apart) keeps lane i.
template <class T, class U>
ASCENDOPT_TWIN_FN void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<U>& src1Pattern,
                const bool reduceMode, const uint32_t mask, const GatherMaskParams& p, uint64_t& rsvdCnt) {
    using namespace ascendopt_twin::detail;
    const uint64_t total = reduceMode ? mask : uint64_t(p.repeatTimes) * repeat_elems<T>();
    rsvdCnt = gather_lanes(dst, src0, total, p.src0BlockStride, p.src0RepeatStride, [&](uint32_t r, uint32_t lane) ASCENDOPT_TWIN_FN {
        return read_bit(src1Pattern, r * p.src1RepeatStride * 256u + lane, "GatherMask");
    });
}

}  // namespace AscendC
