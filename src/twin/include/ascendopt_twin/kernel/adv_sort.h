// Sorting: the basic instructions Sort32, MrgSort (with MrgSortSrcList and MrgSort4Info) and
// GetMrgSortResult, the region-proposal instructions of the Atlas inference series (310P)
// MrgSort4, RpSort16, ProposalConcat and ProposalExtract, and the advanced API built on them:
// Sort<T, isFullSort>, Concat, Extract, MrgSort<T, isExhaustedSuspension>, GetSortLen and
// GetSortOffset.
//
// Layouts, as documented:
//  - Sorted pair (A2): 8 bytes per element. float: score in bytes 0..3, uint32 index in 4..7;
//    half: score in bytes 0..1, bytes 2..3 reserved (the twin writes 0), index in 4..7.
//  - Region proposal (310P): 8 elements of T, [x1, y1, x2, y2, score, label, reserved, reserved].
// The advanced API uses the pair layout, except on the 310P (kernels built with
// __NPU_ARCH__ == 2002), where it uses region proposals, as the documentation says.
//
// Order: descending by score; equal scores keep their input order (the earlier element, or the
// element of the lower-numbered queue, comes first, as documented). NaN is the twin's choice:
// it sorts before every number (as the largest score, torch.sort's order); -0 equals +0.
// Every instruction reads its whole input before writing (dst may be src for RpSort16).
#pragma once

#include "ascendopt_twin/attrs.h"

#include <cstring>

#include "ascendopt_twin/kernel/adv_api.h"

namespace AscendC {

template <class T>
struct MrgSortSrcList {
    MrgSortSrcList() = default;
    ASCENDOPT_TWIN_FN MrgSortSrcList(const LocalTensor<T>& src1In, const LocalTensor<T>& src2In, const LocalTensor<T>& src3In,
                                     const LocalTensor<T>& src4In)
        : src1(src1In[0]), src2(src2In[0]), src3(src3In[0]), src4(src4In[0]) {}
    LocalTensor<T> src1;
    LocalTensor<T> src2;
    LocalTensor<T> src3;
    LocalTensor<T> src4;
};

struct MrgSort4Info {
    MrgSort4Info() = default;
    ASCENDOPT_TWIN_FN MrgSort4Info(const uint16_t elementLengthsIn[4], const bool ifExhaustedSuspensionIn, const uint16_t validBitIn,
                                   const uint16_t repeatTimesIn)
        : ifExhaustedSuspension(ifExhaustedSuspensionIn), validBit(validBitIn), repeatTimes(repeatTimesIn) {
        for (int i = 0; i < 4; ++i) elementLengths[i] = elementLengthsIn[i];
    }
    uint16_t elementLengths[4] = {0, 0, 0, 0};
    bool ifExhaustedSuspension = false;
    uint16_t validBit = 0;
    uint16_t repeatTimes = 1;
};

}  // namespace AscendC

namespace ascendopt_twin::sort {

using AscendC::LocalTensor;

// Element counts of the last MrgSort/MrgSort4 per queue (GetMrgSortResult), per core.
struct MrgSortState {
    uint16_t consumed[4] = {0, 0, 0, 0};
};
ASCENDOPT_TWIN_FN inline MrgSortState& mrgsort_state() {
    static thread_local MrgSortState state;
    return state;
}

// One sortable structure: `elems` elements of T, the score at element `score_at`.
template <class T>
struct Layout {
    uint32_t elems;
    uint32_t score_at;
};
template <class T>
ASCENDOPT_TWIN_FN constexpr Layout<T> pair_layout() { return {uint32_t(8 / sizeof(T)), 0u}; }
template <class T>
ASCENDOPT_TWIN_FN constexpr Layout<T> proposal_layout() { return {8u, 4u}; }

// Whether the advanced API uses region proposals (310P) rather than sorted pairs.
constexpr bool k_proposal_api =
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 2002
    true;
#else
    false;
#endif
template <class T>
ASCENDOPT_TWIN_FN constexpr Layout<T> api_layout() { return k_proposal_api ? proposal_layout<T>() : pair_layout<T>(); }

// a goes before b: larger score first, NaN first of all.
ASCENDOPT_TWIN_FN inline bool before(double a, double b) {
    const bool na = math::isnan(a), nb = math::isnan(b);
    if (na || nb) return na && !nb;
    return a > b;
}

template <class T>
ASCENDOPT_TWIN_FN void check_type(const char* api) {
    static_assert(std::is_same_v<T, Half> || std::is_same_v<T, float>, "the sort APIs take half or float");
    (void)api;
}

// The proposal instructions exist on the 310P only (the A2 reports them unsupported).
ASCENDOPT_TWIN_FN inline void require_proposal_soc(const char* api) {
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 2201
    adv::fail_api(api, "region-proposal instructions are not supported on the Atlas A2 (910B); use Sort32/MrgSort");
#else
    (void)api;
#endif
}

ASCENDOPT_TWIN_FN inline void require_repeat(const char* api, int32_t repeat) {
    if (repeat < 0 || repeat > 255) adv::fail_api(api, "repeatTime " + adv::num(uint64_t(int64_t(repeat))) + " must be 0..255");
}

// Writes one sorted pair (score, index) at pair slot `i` of `dst`.
// Scratch room for n elements, without running T's constructors: those of the twin's half type
// are kernel-side code, instrumented, and confined to the kernel's own memory (docs/sandbox.md).
template <class T>
ASCENDOPT_TWIN_FN T* raw_array(uint64_t n) {
    return reinterpret_cast<T*>(new unsigned char[n * sizeof(T)]);
}
template <class T>
ASCENDOPT_TWIN_FN void free_raw_array(T* p) {
    delete[] reinterpret_cast<unsigned char*>(p);
}

template <class T>
ASCENDOPT_TWIN_FN void put_pair(T* dst, uint64_t i, T score, uint32_t index) {
    uint8_t* p = reinterpret_cast<uint8_t*>(dst) + i * 8;
    ascendopt_twin::raw_fill(p, 0, 8);
    ascendopt_twin::raw_copy(p, &score, sizeof(T));
    ascendopt_twin::raw_copy(p + 4, &index, 4);
}
template <class T>
ASCENDOPT_TWIN_FN uint32_t pair_index(const T* src, uint64_t i) {
    uint32_t index;
    ascendopt_twin::raw_copy(&index, reinterpret_cast<const uint8_t*>(src) + i * 8 + 4, 4);
    return index;
}

// Stable descending order of `n` scores `stride` elements apart (indices into the scores): a
// bottom-up merge sort of the twin's own (std::stable_sort would be compiled as kernel code, and
// charged and checked as such).
template <class T>
ASCENDOPT_TWIN_FN void sorted_order(const T* scores, uint32_t stride, uint32_t n, uint32_t* order) {
    for (uint32_t i = 0; i < n; ++i) order[i] = i;
    if (n < 2) return;
    uint32_t* scratch = new uint32_t[n];
    uint32_t* from = order;
    uint32_t* to = scratch;
    for (uint32_t width = 1; width < n; width *= 2) {
        for (uint32_t lo = 0; lo < n; lo += 2 * width) {
            const uint32_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            uint32_t a = lo, b = mid, out = lo;
            while (a < mid && b < hi) {
                // Take from the right run only when it is strictly ahead: ties keep input order.
                const bool right = before(adv::load(scores[uint64_t(from[b]) * stride]), adv::load(scores[uint64_t(from[a]) * stride]));
                to[out++] = right ? from[b++] : from[a++];
            }
            while (a < mid) to[out++] = from[a++];
            while (b < hi) to[out++] = from[b++];
        }
        uint32_t* t = from;
        from = to;
        to = t;
    }
    if (from != order) ascendopt_twin::raw_copy(order, from, n * sizeof(uint32_t));
    delete[] scratch;
}

// Sort32 of `repeat` groups of 32 (score, index) into pairs.
template <class T>
ASCENDOPT_TWIN_FN void sort32(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& scores, const LocalTensor<uint32_t>& index,
                              int32_t repeat) {
    check_type<T>(api);
    require_repeat(api, repeat);
    const uint64_t n = uint64_t(repeat) * 32;
    adv::require(api, "source (scores)", scores, n);
    adv::require(api, "source (indices)", index, n);
    adv::require(api, "destination", dst, n * 8 / sizeof(T));
    T s[32];
    uint32_t idx[32], order[32];
    for (int32_t r = 0; r < repeat; ++r) {
        ascendopt_twin::raw_copy(s, scores.data() + r * 32, sizeof(s));
        ascendopt_twin::raw_copy(idx, index.data() + r * 32, sizeof(idx));
        sorted_order(s, 1, 32, order);
        for (uint32_t i = 0; i < 32; ++i) put_pair(dst.data(), uint64_t(r) * 32 + i, s[order[i]], idx[order[i]]);
    }
    if (repeat > 0) adv::charge("Sort32", n * 8, dst.data(), scores.data(), index.data());
}

// Merge of up to four sorted queues of structures (pairs or proposals) into dst. Returns the
// number of structures written.
template <class T>
ASCENDOPT_TWIN_FN uint64_t merge(const char* api, Layout<T> lay, const LocalTensor<T>& dst, const AscendC::MrgSortSrcList<T>& list,
                                 const AscendC::MrgSort4Info& info) {
    check_type<T>(api);
    const uint16_t valid = info.validBit;
    if (valid != 1 && valid != 3 && valid != 7 && valid != 15)
        adv::fail_api(api, "validBit " + adv::num(valid) + " must be 3, 7 or 15 (1: the first queue alone)");
    const LocalTensor<T>* queues[4] = {&list.src1, &list.src2, &list.src3, &list.src4};
    int nq = 0;
    while (nq < 4 && (valid >> nq) & 1) ++nq;
    const uint32_t repeats = info.repeatTimes;
    if (repeats == 0) return 0;
    if (repeats > 1) {
        bool ok = nq == 4 && !info.ifExhaustedSuspension;
        for (int q = 1; q < 4 && ok; ++q)
            ok = info.elementLengths[q] == info.elementLengths[0] &&
                 queues[q]->data() == queues[0]->data() + uint64_t(q) * info.elementLengths[0] * lay.elems;
        if (!ok)
            adv::fail_api(api, "repeatTimes " + adv::num(repeats) +
                                   " needs four queues of one length stored back to back, validBit 15 and no exhausted suspension");
    }
    const uint64_t len0 = info.elementLengths[0];
    uint64_t written = 0;
    for (uint32_t r = 0; r < repeats; ++r) {
        // Stage the queues (dst may not overlap them, but they may overlap each other).
        uint64_t total = 0;
        for (int q = 0; q < nq; ++q) total += info.elementLengths[q];
        T* stage = raw_array<T>(total * lay.elems + 1);
        uint64_t start[4] = {0, 0, 0, 0}, at = 0;
        for (int q = 0; q < nq; ++q) {
            const uint64_t n = uint64_t(info.elementLengths[q]) * lay.elems;
            const LocalTensor<T> src = (*queues[q])[uint32_t(uint64_t(r) * 4 * len0 * lay.elems)];
            adv::require(api, "source queue", src, n);
            ascendopt_twin::raw_copy(stage + at, src.data(), n * sizeof(T));
            start[q] = at;
            at += n;
        }
        uint64_t pos[4] = {0, 0, 0, 0};
        uint64_t out = 0;
        const uint64_t out_base = uint64_t(r) * 4 * len0;
        adv::require(api, "destination", dst, (out_base + total) * lay.elems);
        while (true) {
            int pick = -1;
            for (int q = 0; q < nq; ++q) {
                if (pos[q] >= info.elementLengths[q]) continue;
                const double sc = adv::load(stage[start[q] + pos[q] * lay.elems + lay.score_at]);
                if (pick < 0 || before(sc, adv::load(stage[start[pick] + pos[pick] * lay.elems + lay.score_at]))) pick = q;
            }
            if (pick < 0) break;
            ascendopt_twin::raw_copy(dst.data() + (out_base + out) * lay.elems, stage + start[pick] + pos[pick] * lay.elems, lay.elems * sizeof(T));
            ++pos[pick];
            ++out;
            if (info.ifExhaustedSuspension && pos[pick] == info.elementLengths[pick]) break;
        }
        free_raw_array(stage);
        auto& st = mrgsort_state();
        for (int q = 0; q < 4; ++q) st.consumed[q] = static_cast<uint16_t>(q < nq ? pos[q] : 0);
        written += out;
        adv::charge(api, out * lay.elems * sizeof(T), dst.data(), queues[0]->data());
    }
    return written;
}

// Region proposals: 16 per repeat.
template <class T>
ASCENDOPT_TWIN_FN void rp_sort16(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t repeat) {
    check_type<T>(api);
    require_repeat(api, repeat);
    const uint64_t n = uint64_t(repeat) * 16 * 8;
    adv::require(api, "source", src, n);
    adv::require(api, "destination", dst, n);
    T group[16 * 8];
    uint32_t order[16];
    for (int32_t r = 0; r < repeat; ++r) {
        ascendopt_twin::raw_copy(group, src.data() + uint64_t(r) * 128, sizeof(group));
        sorted_order(group + 4, 8, 16, order);
        for (uint32_t i = 0; i < 16; ++i) ascendopt_twin::raw_copy(dst.data() + uint64_t(r) * 128 + i * 8, group + order[i] * 8, 8 * sizeof(T));
    }
    if (repeat > 0) adv::charge(api, n * sizeof(T), dst.data(), src.data());
}

template <class T>
ASCENDOPT_TWIN_FN void check_mode(const char* api, int32_t mode) {
    if (mode < 0 || mode > 5) adv::fail_api(api, "modeNumber " + adv::num(uint64_t(int64_t(mode))) + " must be 0..5 (x1, y1, x2, y2, score, label)");
}

}  // namespace ascendopt_twin::sort

namespace AscendC {

template <typename T>
ASCENDOPT_TWIN_FN void Sort32(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<uint32_t>& src1, const int32_t repeatTime) {
    ascendopt_twin::sort::sort32("Sort32", dst, src0, src1, repeatTime);
}

// Merges up to four sorted queues of (score, index) pairs (A2).
template <typename T>
ASCENDOPT_TWIN_FN void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params) {
    ascendopt_twin::sort::merge("MrgSort", ascendopt_twin::sort::pair_layout<T>(), dst, src, params);
}

// Merges up to four sorted queues of region proposals (310P).
template <typename T>
ASCENDOPT_TWIN_FN void MrgSort4(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params) {
    ascendopt_twin::sort::require_proposal_soc("MrgSort4");
    ascendopt_twin::sort::merge("MrgSort4", ascendopt_twin::sort::proposal_layout<T>(), dst, src, params);
}

// Structures taken from each queue by the last MrgSort/MrgSort4 (meaningful with ifExhaustedSuspension).
ASCENDOPT_TWIN_FN inline void GetMrgSortResult(uint16_t& mrgSortList1, uint16_t& mrgSortList2, uint16_t& mrgSortList3, uint16_t& mrgSortList4) {
    const auto& st = ascendopt_twin::sort::mrgsort_state();
    mrgSortList1 = st.consumed[0];
    mrgSortList2 = st.consumed[1];
    mrgSortList3 = st.consumed[2];
    mrgSortList4 = st.consumed[3];
}

template <typename T>
ASCENDOPT_TWIN_FN void RpSort16(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime) {
    ascendopt_twin::sort::require_proposal_soc("RpSort16");
    ascendopt_twin::sort::rp_sort16("RpSort16", dst, src, repeatTime);
}

// Writes 16 elements per repeat into field `modeNumber` of 16 region proposals; other fields stay.
template <typename T>
ASCENDOPT_TWIN_FN void ProposalConcat(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime, const int32_t modeNumber) {
    ascendopt_twin::sort::require_proposal_soc("ProposalConcat");
    ascendopt_twin::sort::require_repeat("ProposalConcat", repeatTime);
    ascendopt_twin::sort::check_mode<T>("ProposalConcat", modeNumber);
    const uint64_t n = uint64_t(repeatTime) * 16;
    ascendopt_twin::adv::require("ProposalConcat", "source", src, n);
    ascendopt_twin::adv::require("ProposalConcat", "destination", dst, n * 8);
    for (uint64_t i = 0; i < n; ++i) dst.data()[i * 8 + uint32_t(modeNumber)] = src.data()[i];
    if (n) ascendopt_twin::adv::charge("ProposalConcat", n * 8 * sizeof(T), dst.data(), src.data());
}

// Reads field `modeNumber` of 16 region proposals per repeat into 16 consecutive elements.
template <typename T>
ASCENDOPT_TWIN_FN void ProposalExtract(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime, const int32_t modeNumber) {
    ascendopt_twin::sort::require_proposal_soc("ProposalExtract");
    ascendopt_twin::sort::require_repeat("ProposalExtract", repeatTime);
    ascendopt_twin::sort::check_mode<T>("ProposalExtract", modeNumber);
    const uint64_t n = uint64_t(repeatTime) * 16;
    ascendopt_twin::adv::require("ProposalExtract", "source", src, n * 8);
    ascendopt_twin::adv::require("ProposalExtract", "destination", dst, n);
    for (uint64_t i = 0; i < n; ++i) dst.data()[i] = src.data()[i * 8 + uint32_t(modeNumber)];
    if (n) ascendopt_twin::adv::charge("ProposalExtract", n * 8 * sizeof(T), dst.data(), src.data());
}

// ---- advanced API ----------------------------------------------------------------------

// Elements of T that `elemCount` sorted structures occupy (pairs: 8 bytes each; proposals: 8
// elements). The documentation says bytes; the library returns elements of T, which is what
// kernels use it as (GetSortLen<float>(n) floats for n pairs).
template <typename T>
ASCENDOPT_TWIN_FN uint32_t GetSortLen(const uint32_t elemCount) {
    return elemCount * ascendopt_twin::sort::api_layout<T>().elems;
}
template <typename T>
ASCENDOPT_TWIN_FN uint32_t GetSortOffset(const uint32_t elemOffset) {
    return elemOffset * ascendopt_twin::sort::api_layout<T>().elems;
}

// Prepares scores for Sort. A2: the scores are sorted where they are (concat becomes src, no
// instruction); 310P: they are written into the score field of region proposals in tmp.
template <typename T>
ASCENDOPT_TWIN_FN void Concat(LocalTensor<T>& concat, const LocalTensor<T>& src, const LocalTensor<T>& tmp, const int32_t repeatTime) {
    if constexpr (ascendopt_twin::sort::k_proposal_api) {
        ProposalConcat(tmp, src, repeatTime, 4);
        concat = tmp;
    } else {
        (void)tmp;
        ascendopt_twin::sort::require_repeat("Concat", repeatTime);
        concat = src;
    }
}

// Sorts repeatTime groups (A2: 32 scores with their uint32 indices into pairs; 310P: 16 region
// proposals, the index going into the label field). isFullSort merges all groups into one
// descending order, using tmp (the sorted data, GetSortTmpSize bytes), which ends holding it too.
template <typename T, bool isFullSort>
ASCENDOPT_TWIN_FN void Sort(const LocalTensor<T>& dst, const LocalTensor<T>& concat, const LocalTensor<uint32_t>& index, LocalTensor<T>& tmp,
                            const int32_t repeatTime) {
    using namespace ascendopt_twin;
    constexpr auto lay = sort::api_layout<T>();
    uint64_t n;  // structures
    if constexpr (sort::k_proposal_api) {
        sort::require_repeat("Sort", repeatTime);
        n = uint64_t(repeatTime) * 16;
        adv::require("Sort", "concat", concat, n * 8);
        if (index.GetSize() != 0) {
            adv::require("Sort", "index", index, n);
            for (uint64_t i = 0; i < n; ++i) {
                if constexpr (std::is_same_v<T, float>) {
                    ascendopt_twin::raw_copy(concat.data() + i * 8 + 5, index.data() + i, 4);
                } else {  // low half in y1, high half in label
                    const uint32_t v = index.data()[i];
                    const uint16_t lo = uint16_t(v & 0xffffu), hi = uint16_t(v >> 16);
                    ascendopt_twin::raw_copy(concat.data() + i * 8 + 1, &lo, 2);
                    ascendopt_twin::raw_copy(concat.data() + i * 8 + 5, &hi, 2);
                }
            }
        }
        sort::rp_sort16("Sort", dst, concat, repeatTime);
    } else {
        sort::sort32("Sort", dst, concat, index, repeatTime);
        n = uint64_t(repeatTime) * 32;
    }
    if constexpr (isFullSort) {
        const uint64_t elems = n * lay.elems;
        adv::require_tmp("Sort", tmp, elems * sizeof(T));
        T* all = ascendopt_twin::sort::raw_array<T>(elems + 1);
        ascendopt_twin::raw_copy(all, dst.data(), elems * sizeof(T));
        uint32_t* order = new uint32_t[n + 1];
        sort::sorted_order(all + lay.score_at, lay.elems, uint32_t(n), order);
        for (uint64_t i = 0; i < n; ++i) ascendopt_twin::raw_copy(dst.data() + i * lay.elems, all + uint64_t(order[i]) * lay.elems, lay.elems * sizeof(T));
        ascendopt_twin::raw_copy(tmp.data(), dst.data(), elems * sizeof(T));
        delete[] order;
        ascendopt_twin::sort::free_raw_array(all);
        // Estimate: merge rounds of four queues each until one queue is left, plus the copies.
        for (uint64_t queues = n / (sort::k_proposal_api ? 16 : 32); queues > 1; queues = (queues + 3) / 4) {
            adv::charge("MrgSort", elems * sizeof(T), dst.data(), tmp.data());
            adv::charge("Copy", elems * sizeof(T), tmp.data(), dst.data());
        }
    }
}

// Splits sorted data into scores and indices: repeatTime * 32 pairs (A2) or repeatTime * 16
// region proposals (310P, the index from the label field; none when dstIndex is empty).
template <typename T>
ASCENDOPT_TWIN_FN void Extract(const LocalTensor<T>& dstValue, const LocalTensor<uint32_t>& dstIndex, const LocalTensor<T>& sorted,
                               const int32_t repeatTime) {
    using namespace ascendopt_twin;
    sort::require_repeat("Extract", repeatTime);
    if constexpr (sort::k_proposal_api) {
        const uint64_t n = uint64_t(repeatTime) * 16;
        adv::require("Extract", "sorted", sorted, n * 8);
        adv::require("Extract", "value destination", dstValue, n);
        for (uint64_t i = 0; i < n; ++i) dstValue.data()[i] = sorted.data()[i * 8 + 4];
        if (dstIndex.GetSize() != 0) {
            adv::require("Extract", "index destination", dstIndex, n);
            for (uint64_t i = 0; i < n; ++i) {
                uint32_t v = 0;
                if constexpr (std::is_same_v<T, float>) {
                    ascendopt_twin::raw_copy(&v, sorted.data() + i * 8 + 5, 4);
                } else {
                    uint16_t lo, hi;
                    ascendopt_twin::raw_copy(&lo, sorted.data() + i * 8 + 1, 2);
                    ascendopt_twin::raw_copy(&hi, sorted.data() + i * 8 + 5, 2);
                    v = uint32_t(lo) | (uint32_t(hi) << 16);
                }
                dstIndex.data()[i] = v;
            }
        }
        if (n) adv::charge("ProposalExtract", n * 8 * sizeof(T), dstValue.data(), sorted.data());
    } else {
        const uint64_t n = uint64_t(repeatTime) * 32;
        adv::require("Extract", "sorted", sorted, n * 8 / sizeof(T));
        adv::require("Extract", "value destination", dstValue, n);
        adv::require("Extract", "index destination", dstIndex, n);
        for (uint64_t i = 0; i < n; ++i) {
            T score;
            ascendopt_twin::raw_copy(&score, reinterpret_cast<const uint8_t*>(sorted.data()) + i * 8, sizeof(T));
            dstValue.data()[i] = score;
            dstIndex.data()[i] = sort::pair_index(sorted.data(), i);
        }
        if (n) {
            adv::charge("GatherMask", n * 8, dstValue.data(), sorted.data());
            adv::charge("GatherMask", n * 8, dstIndex.data(), sorted.data());
        }
    }
}

// Merges 2..4 sorted queues (pairs on A2, region proposals on 310P). With isExhaustedSuspension
// the merge stops when a queue runs out and sortedNum[i] says how many came from queue i.
template <typename T, bool isExhaustedSuspension = false>
ASCENDOPT_TWIN_FN void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& sortList, const uint16_t elementCountList[4],
                               uint32_t sortedNum[4], uint16_t validBit, const int32_t repeatTime) {
    using namespace ascendopt_twin;
    if (repeatTime < 1 || repeatTime > 255) adv::fail_api("MrgSort", "repeatTime " + adv::num(uint64_t(int64_t(repeatTime))) + " must be 1..255");
    const MrgSort4Info info(elementCountList, isExhaustedSuspension, validBit, uint16_t(repeatTime));
    sort::merge("MrgSort", sort::api_layout<T>(), dst, sortList, info);
    if (isExhaustedSuspension)
        for (int q = 0; q < 4; ++q) sortedNum[q] = sort::mrgsort_state().consumed[q];
}

}  // namespace AscendC
