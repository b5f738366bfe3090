// Reductions. Sums accumulate in double and round once on store, so results do not depend
// on a summation order we cannot know; max/min ties keep the first index, and a NaN is the
// result of max/min from the first NaN on (its index).
//  - ReduceSum/ReduceMax/ReduceMin: whole tensor -> dst[0] (and the index in dst[1] when
//    calIndex, stored as the bit pattern of an unsigned integer of sizeof(T)).
//  - WholeReduce*: one result per repeat; dstRepStride counts results (value or value/index pair).
//  - BlockReduce*: one result per 32-byte block (8 per repeat); dstRepStride counts 8-result groups.
//  - PairReduceSum: sums of adjacent lanes; dstRepStride counts half-repeat groups.
#pragma once

#include "ascendopt_twin/attrs.h"

#include "ascendopt_twin/kernel/vec.h"

namespace ascendopt_twin::detail {

enum class Reduce { sum, max, min };

struct Accumulator {
    Reduce op;
    double value = 0;
    uint32_t index = 0;
    bool any = false;
    ASCENDOPT_TWIN_FN void add(double v, uint32_t i) {
        if (!any) {
            value = v;
            index = i;
            any = true;
        } else if (op == Reduce::sum) {
            value += v;
        } else if (value != value) {
            // A NaN met stays the result, at its index (NaN propagates, docs/twin.md).
        } else if (v != v || (op == Reduce::max && v > value) || (op == Reduce::min && v < value)) {
            value = v;
            index = i;
        }
    }
};

template <class T>
ASCENDOPT_TWIN_FN T index_as(uint32_t index) {
    using U = std::conditional_t<sizeof(T) == 2, uint16_t, std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>>;
    static_assert(sizeof(U) == sizeof(T), "reduction indices are stored in an element of the tensor's type");
    const U u = static_cast<U>(index);
    T t;
    ascendopt_twin::raw_copy(&t, &u, sizeof(T));
    return t;
}

template <class T>
ASCENDOPT_TWIN_FN void reduce_all(const char* api, Reduce op, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                uint64_t count, bool cal_index) {
    require_count(count, src, api, "source");
    require_count(cal_index ? 2 : 1, dst, api, "destination");
    Accumulator acc{op};
    for (uint64_t i = 0; i < count; ++i) acc.add(double(compute_t<T>(src.data()[i])), uint32_t(i));
    dst.data()[0] = static_cast<T>(acc.value);
    if (cal_index) dst.data()[1] = index_as<T>(acc.index);
    reduce_state() = ReduceState{acc.value, acc.index};
    record_vector<T>(api, count, dst.data(), src.data());
}

template <class T>
ASCENDOPT_TWIN_FN void reduce_repeats(const char* api, Reduce op, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                    const Lanes& l, uint32_t blk, uint32_t rep, uint32_t dst_rep, AscendC::ReduceOrder order) {
    require_footprint<T>(l, blk, rep, src, api, "source");
    const bool pair = op != Reduce::sum && (order == AscendC::ReduceOrder::ORDER_VALUE_INDEX ||
                                            order == AscendC::ReduceOrder::ORDER_INDEX_VALUE);
    const uint32_t width = pair ? 2 : 1;
    Accumulator all{op};  // the maxMin register: the extreme over every repeat, at its index in src
    for (uint32_t r = 0; r < l.repeats; ++r) {
        Accumulator acc{op};
        for (uint32_t lane = 0; lane < l.lanes_per_repeat; ++lane)
            if (l.active(r, lane)) {
                const uint64_t at = lane_index<T>(r, lane, blk, rep);
                const double v = double(compute_t<T>(src.data()[at]));
                acc.add(v, lane);
                all.add(v, uint32_t(at));
            }
        const uint64_t at = uint64_t(r) * dst_rep * width;
        if (at + width > dst.extent())
            check_ub_access(api, "destination", dst.data(), (at + width) * sizeof(T), uint64_t(dst.extent()) * sizeof(T));
        const T value = static_cast<T>(acc.value);
        const T index = index_as<T>(acc.index);
        switch (order) {
            case AscendC::ReduceOrder::ORDER_INDEX_VALUE: dst.data()[at] = pair ? index : value; if (pair) dst.data()[at + 1] = value; break;
            case AscendC::ReduceOrder::ORDER_ONLY_INDEX: dst.data()[at] = op == Reduce::sum ? value : index; break;
            default: dst.data()[at] = value; if (pair) dst.data()[at + 1] = index; break;
        }
    }
    if (all.any) reduce_state() = ReduceState{all.value, all.index};
    record_vector<T>(api, uint64_t(l.repeats) * l.lanes_per_repeat, dst.data(), src.data());
}

// The elements a count-form reduction takes: `count`, or while the kernel has put the mask in
// counter mode itself (SetMaskCount, SetVectorMask(n)) the mask's n, as the device's does:
// published norm kernels sum a row that way with ReduceSum(dst, src, work, 1) and GetAccVal.
ASCENDOPT_TWIN_FN inline uint64_t reduce_count(int32_t count) {
    const auto& m = mask_state();
    return m.counter_mode ? m.lo : uint64_t(count < 0 ? 0 : count);
}

// ReduceMax/ReduceMin/ReduceSum, mask forms: one result over every active lane of every repeat
// (contiguous blocks, repeats srcRepStride blocks apart), the index being the element's offset in src.
template <class T>
ASCENDOPT_TWIN_FN void reduce_lanes(const char* api, Reduce op, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                                    const Lanes& l, uint32_t rep, bool cal_index) {
    require_footprint<T>(l, 1, rep, src, api, "source");
    require_count(cal_index ? 2 : 1, dst, api, "destination");
    Accumulator acc{op};
    for (uint32_t r = 0; r < l.repeats; ++r)
        for (uint32_t lane = 0; lane < l.lanes_per_repeat; ++lane)
            if (l.active(r, lane)) {
                const uint64_t at = lane_index<T>(r, lane, 1, rep);
                acc.add(double(compute_t<T>(src.data()[at])), uint32_t(at));
            }
    dst.data()[0] = static_cast<T>(acc.value);
    if (cal_index) dst.data()[1] = index_as<T>(acc.index);
    reduce_state() = ReduceState{acc.value, acc.index};
    record_vector<T>(api, uint64_t(l.repeats) * l.lanes_per_repeat, dst.data(), src.data());
}

// Reduces groups of `group` lanes of each repeat; results of one repeat are contiguous.
template <class T>
ASCENDOPT_TWIN_FN void reduce_groups(const char* api, Reduce op, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                   const Lanes& l, uint32_t group, uint32_t blk, uint32_t rep, uint32_t dst_rep) {
    require_footprint<T>(l, blk, rep, src, api, "source");
    const uint32_t groups = l.lanes_per_repeat / group;
    for (uint32_t r = 0; r < l.repeats; ++r)
        for (uint32_t g = 0; g < groups; ++g) {
            Accumulator acc{op};
            for (uint32_t lane = g * group; lane < (g + 1) * group; ++lane)
                if (l.active(r, lane)) acc.add(double(compute_t<T>(src.data()[lane_index<T>(r, lane, blk, rep)])), lane);
            const uint64_t at = uint64_t(r) * dst_rep * groups + g;
            if (at >= dst.extent())
                check_ub_access(api, "destination", dst.data(), (at + 1) * sizeof(T), uint64_t(dst.extent()) * sizeof(T));
            dst.data()[at] = static_cast<T>(acc.value);
        }
    record_vector<T>(api, uint64_t(l.repeats) * l.lanes_per_repeat, dst.data(), src.data());
}

}  // namespace ascendopt_twin::detail

namespace AscendC {

template <class T>
ASCENDOPT_TWIN_FN void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& workLocal, const int32_t count) {
    (void)workLocal;
    ascendopt_twin::detail::reduce_all("ReduceSum", ascendopt_twin::detail::Reduce::sum, dst, src, ascendopt_twin::detail::reduce_count(count), false);
}
template <class T>
ASCENDOPT_TWIN_FN void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& workLocal, const int32_t count,
               bool calIndex = false) {
    (void)workLocal;
    ascendopt_twin::detail::reduce_all("ReduceMax", ascendopt_twin::detail::Reduce::max, dst, src, ascendopt_twin::detail::reduce_count(count), calIndex);
}
template <class T>
ASCENDOPT_TWIN_FN void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& workLocal, const int32_t count,
               bool calIndex = false) {
    (void)workLocal;
    ascendopt_twin::detail::reduce_all("ReduceMin", ascendopt_twin::detail::Reduce::min, dst, src, ascendopt_twin::detail::reduce_count(count), calIndex);
}

// Mask forms: `mask` lanes (or the bits of mask[]) of `repeatTimes` repeats, srcRepStride blocks apart.
#define ASCENDOPT_TWIN_REDUCE_MASKED(NAME, OP)                                                                           \
    template <class T>                                                                                                  \
    ASCENDOPT_TWIN_FN void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& workLocal,   \
                                const uint64_t mask[], const int32_t repeatTimes, const int32_t srcRepStride,            \
                                bool calIndex = false) {                                                                \
        (void)workLocal;                                                                                                \
        const auto l = ascendopt_twin::detail::lanes_from_bits<T>(mask, uint32_t(repeatTimes), true, #NAME);          \
        ascendopt_twin::detail::reduce_lanes(#NAME, ascendopt_twin::detail::Reduce::OP, dst, src, l, uint32_t(srcRepStride), calIndex); \
    }                                                                                                                   \
    template <class T>                                                                                                  \
    ASCENDOPT_TWIN_FN void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& workLocal,   \
                                const int32_t mask, const int32_t repeatTimes, const int32_t srcRepStride,              \
                                bool calIndex = false) {                                                                \
        (void)workLocal;                                                                                                \
        const auto l = ascendopt_twin::detail::lanes_from_count<T>(uint64_t(mask), uint32_t(repeatTimes), true, #NAME); \
        ascendopt_twin::detail::reduce_lanes(#NAME, ascendopt_twin::detail::Reduce::OP, dst, src, l, uint32_t(srcRepStride), calIndex); \
    }

ASCENDOPT_TWIN_REDUCE_MASKED(ReduceMax, max)
ASCENDOPT_TWIN_REDUCE_MASKED(ReduceMin, min)

// ReduceSum's mask forms take no calIndex (a sum has no index).
template <class T>
ASCENDOPT_TWIN_FN void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& workLocal, const uint64_t mask[],
                                 const int32_t repeatTimes, const int32_t srcRepStride) {
    (void)workLocal;
    const auto l = ascendopt_twin::detail::lanes_from_bits<T>(mask, uint32_t(repeatTimes), true, "ReduceSum");
    ascendopt_twin::detail::reduce_lanes("ReduceSum", ascendopt_twin::detail::Reduce::sum, dst, src, l, uint32_t(srcRepStride), false);
}
template <class T>
ASCENDOPT_TWIN_FN void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& workLocal, const int32_t mask,
                                 const int32_t repeatTimes, const int32_t srcRepStride) {
    (void)workLocal;
    const auto l = ascendopt_twin::detail::lanes_from_count<T>(uint64_t(mask), uint32_t(repeatTimes), true, "ReduceSum");
    ascendopt_twin::detail::reduce_lanes("ReduceSum", ascendopt_twin::detail::Reduce::sum, dst, src, l, uint32_t(srcRepStride), false);
}

#define ASCENDOPT_TWIN_WHOLE_REDUCE(NAME, OP, DEFAULT_ORDER)                                                            \
    template <class T, bool isSetMask = true>                                                                           \
    ASCENDOPT_TWIN_FN void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask, const int32_t repeatTimes,      \
              const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride,                       \
              ReduceOrder order = DEFAULT_ORDER) {                                                                      \
        const auto l = ascendopt_twin::detail::lanes_from_count<T>(uint64_t(mask), uint32_t(repeatTimes), isSetMask, #NAME); \
        ascendopt_twin::detail::reduce_repeats(#NAME, ascendopt_twin::detail::Reduce::OP, dst, src, l, srcBlkStride,    \
                                               srcRepStride, dstRepStride, order);                                      \
    }                                                                                                                   \
    template <class T, bool isSetMask = true>                                                                           \
    ASCENDOPT_TWIN_FN void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], const int32_t repeatTimes,   \
              const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride,                       \
              ReduceOrder order = DEFAULT_ORDER) {                                                                      \
        const auto l = ascendopt_twin::detail::lanes_from_bits<T>(mask, uint32_t(repeatTimes), isSetMask, #NAME);      \
        ascendopt_twin::detail::reduce_repeats(#NAME, ascendopt_twin::detail::Reduce::OP, dst, src, l, srcBlkStride,    \
                                               srcRepStride, dstRepStride, order);                                      \
    }

ASCENDOPT_TWIN_WHOLE_REDUCE(WholeReduceSum, sum, ReduceOrder::ORDER_ONLY_VALUE)
ASCENDOPT_TWIN_WHOLE_REDUCE(WholeReduceMax, max, ReduceOrder::ORDER_VALUE_INDEX)
ASCENDOPT_TWIN_WHOLE_REDUCE(WholeReduceMin, min, ReduceOrder::ORDER_VALUE_INDEX)

#define ASCENDOPT_TWIN_GROUP_REDUCE(NAME, OP, GROUP)                                                                    \
    template <class T, bool isSetMask = true>                                                                           \
    ASCENDOPT_TWIN_FN void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTimes, const int32_t mask,      \
              const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride) {                     \
        const auto l = ascendopt_twin::detail::lanes_from_count<T>(uint64_t(mask), uint32_t(repeatTimes), isSetMask, #NAME); \
        ascendopt_twin::detail::reduce_groups(#NAME, ascendopt_twin::detail::Reduce::OP, dst, src, l, GROUP,            \
                                              srcBlkStride, srcRepStride, dstRepStride);                                \
    }

ASCENDOPT_TWIN_GROUP_REDUCE(BlockReduceSum, sum, ascendopt_twin::detail::block_elems<T>())
ASCENDOPT_TWIN_GROUP_REDUCE(BlockReduceMax, max, ascendopt_twin::detail::block_elems<T>())
ASCENDOPT_TWIN_GROUP_REDUCE(BlockReduceMin, min, ascendopt_twin::detail::block_elems<T>())
ASCENDOPT_TWIN_GROUP_REDUCE(PairReduceSum, sum, 2u)

// Value and index of the most recent ReduceMax/ReduceMin/WholeReduceMax/WholeReduceMin, over
// all its repeats; the index is the element's offset in the source, stored as the bit pattern
// of an unsigned integer of sizeof(T) (read it back through a uint32_t*, as the docs say).
template <class T>
ASCENDOPT_TWIN_FN void GetReduceMaxMinCount(T& maxMinValue, T& maxMinIndex) {
    const auto& s = ascendopt_twin::reduce_state();
    maxMinValue = static_cast<T>(s.value);
    maxMinIndex = ascendopt_twin::detail::index_as<T>(s.index);
}
template <class T>
ASCENDOPT_TWIN_FN void GetReduceMaxMinCount(T& maxMinValue) {
    maxMinValue = static_cast<T>(ascendopt_twin::reduce_state().value);
}

}  // namespace AscendC
