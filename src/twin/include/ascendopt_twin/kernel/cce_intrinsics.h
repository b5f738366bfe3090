// Raw vector intrinsics of the device compiler, the layer below the Ascend C API, that published
// kernels call on raw UB addresses (`(__ubuf__ float*)t.GetPhyAddr()`). Each one is the
// documented API it underlies, run on the UB from that address on: the mask register as the
// kernel last set it (set_vector_mask / SetVectorMask, normal or counter mode), the same checks
// and the same charge on the vector pipe. Argument order follows the calls in published kernels;
// docs/twin.md ("Raw intrinsics") lists them and what is not modelled.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ascendopt_twin/attrs.h"
#include "ascendopt_twin/kernel/copy.h"
#include "ascendopt_twin/kernel/internal_impl.h"
#include "ascendopt_twin/kernel/rearrange.h"
#include "ascendopt_twin/kernel/vec_math.h"
#include "ascendopt_twin/kernel/vec_reduce.h"

// The vector address registers: eight of them, eight UB addresses each.
enum ub_addr8_t : uint8_t { VA0 = 0, VA1, VA2, VA3, VA4, VA5, VA6, VA7 };

namespace ascendopt_twin::detail {

// One core's VA registers. Each core of a launch is its own thread, so a thread's registers
// are its core's.
struct VaRegisters {
    uint64_t addr[8][8] = {};
};
inline thread_local VaRegisters t_va_registers;

// The 16 addresses scatter_vnchwconv reads from register `first` and the one after it.
ASCENDOPT_TWIN_FN inline void va_pair(ub_addr8_t first, uint8_t* out[16], const char* which) {
    if (first > VA6)
        fail(ErrorKind::run_failed, "scatter_vnchwconv_b16", std::string(which) + " register VA" + str(int(first)) +
                                                               " has no successor (it reads the register and the next one)");
    for (int i = 0; i < 16; ++i) out[i] = reinterpret_cast<uint8_t*>(t_va_registers.addr[first + i / 8][i % 8]);
}

}  // namespace ascendopt_twin::detail

// Loads eight UB addresses into a VA register.
ASCENDOPT_TWIN_FN inline void set_va_reg_sb(ub_addr8_t reg, const uint64_t* addresses) {
    for (int i = 0; i < 8; ++i) ascendopt_twin::detail::t_va_registers.addr[reg][i] = addresses[i];
}

// TransDataTo5HD for 16-bit data with its 16 destination and 16 source block addresses in the
// register pairs (dst, dst + 1) and (src, src + 1); strides in 32-byte blocks per repeat.
ASCENDOPT_TWIN_FN inline void scatter_vnchwconv_b16(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat, uint16_t dstRepStride,
                                                    uint16_t srcRepStride) {
    uint8_t* d[16];
    uint8_t* s[16];
    ascendopt_twin::detail::va_pair(dst, d, "destination");
    ascendopt_twin::detail::va_pair(src, s, "source");
    ascendopt_twin::detail::trans_5hd<uint16_t>(d, s, AscendC::TransDataTo5HDParams(false, false, repeat, dstRepStride, srcRepStride));
}

// WholeReduceSum: the sum of each repeat's masked lanes into dst[r * dstRepStride]. The last
// argument is false in every published call; true is not modelled.
template <class T>
ASCENDOPT_TWIN_FN void vcadd(T* dst, T* src, uint8_t repeat, uint16_t dstRepStride, uint16_t srcBlkStride, uint16_t srcRepStride,
                             bool mode = false) {
    if (mode) ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, "vcadd", "the form with its last argument true is not modelled");
    int32_t mask_register = 0;  // isSetMask false: the API reads the mask register, not this
    AscendC::WholeReduceSum<T, false>(ascendopt_twin::detail::ub_tensor(dst), ascendopt_twin::detail::ub_tensor(src), mask_register,
                                      int32_t(repeat), int32_t(dstRepStride), int32_t(srcBlkStride), int32_t(srcRepStride));
}

// Duplicate over the masked lanes of `repeat` repeats (the source strides have no source).
template <class T>
ASCENDOPT_TWIN_FN void vector_dup(T* dst, ascendopt_twin::detail::same_t<T> value, uint8_t repeat, uint16_t dstBlkStride,
                                  uint16_t srcBlkStride, uint8_t dstRepStride, uint8_t srcRepStride) {
    (void)srcBlkStride;
    (void)srcRepStride;
    AscendC::Duplicate<T, false>(ascendopt_twin::detail::ub_tensor(dst), value, uint64_t(0), repeat, dstBlkStride, dstRepStride);
}

// Bitwise Or over the masked lanes.
template <class T>
ASCENDOPT_TWIN_FN void vor(T* dst, T* src0, T* src1, uint8_t repeat, uint8_t dstBlkStride, uint8_t src0BlkStride,
                           uint8_t src1BlkStride, uint8_t dstRepStride, uint8_t src0RepStride, uint8_t src1RepStride) {
    using ascendopt_twin::detail::ub_tensor;
    AscendC::Or<T, false>(ub_tensor(dst), ub_tensor(src0), ub_tensor(src1), uint64_t(0), repeat,
                          AscendC::BinaryRepeatParams(dstBlkStride, src0BlkStride, src1BlkStride, dstRepStride, src0RepStride,
                                                      src1RepStride));
}

// DataCopy inside the UB: nBurst bursts of lenBurst 32-byte blocks, gaps in blocks.
template <class T>
ASCENDOPT_TWIN_FN void copy_ubuf_to_ubuf(T* dst, T* src, uint8_t sid, uint16_t nBurst, uint16_t lenBurst, uint16_t srcGap,
                                         uint16_t dstGap) {
    (void)sid;
    AscendC::DataCopy(ascendopt_twin::detail::ub_tensor(dst), ascendopt_twin::detail::ub_tensor(src),
                      AscendC::DataCopyParams(nBurst, lenBurst, srcGap, dstGap));
}

// DataCopyPad on raw addresses, one entry per element width (b8, b16, b32): nBurst bursts of
// lenBurst BYTES; a GM gap in bytes and a UB gap in 32-byte blocks, as DataCopyExtParams has
// them; leftPaddingNum / rightPaddingNum elements of padding around each burst in the UB. The
// pad value register (set_pad_val) is not modelled: padding is zero.
namespace ascendopt_twin::detail {

template <class E>
ASCENDOPT_TWIN_FN void copy_gm_to_ubuf_align(void* dst, void* src, uint16_t nBurst, uint32_t lenBurst, uint8_t left, uint8_t right,
                                             uint32_t srcGap, uint32_t dstGap) {
    AscendC::DataCopyPad(ub_tensor(static_cast<E*>(dst)), gm_tensor(static_cast<E*>(src)),
                         AscendC::DataCopyExtParams(nBurst, lenBurst, srcGap, dstGap, 0),
                         AscendC::DataCopyPadExtParams<E>(left != 0 || right != 0, left, right, E(0)));
}

template <class E>
ASCENDOPT_TWIN_FN void copy_ubuf_to_gm_align(void* dst, void* src, uint16_t nBurst, uint32_t lenBurst, uint32_t srcGap, uint32_t dstGap) {
    AscendC::DataCopyPad(gm_tensor(static_cast<E*>(dst)), ub_tensor(static_cast<E*>(src)),
                         AscendC::DataCopyExtParams(nBurst, lenBurst, srcGap, dstGap, 0));
}

}  // namespace ascendopt_twin::detail

#define ASCENDOPT_TWIN_ALIGN_COPIES(bits, E)                                                                                        \
    ASCENDOPT_TWIN_FN inline void copy_gm_to_ubuf_align_b##bits(void* dst, void* src, uint8_t sid, uint16_t nBurst, uint32_t lenBurst, \
                                                               uint8_t left, uint8_t right, uint32_t srcGap, uint32_t dstGap) {      \
        (void)sid;                                                                                                                  \
        ascendopt_twin::detail::copy_gm_to_ubuf_align<E>(dst, src, nBurst, lenBurst, left, right, srcGap, dstGap);                   \
    }                                                                                                                               \
    /* UB->GM takes no padding: the two padding arguments must be zero. */                                                          \
    ASCENDOPT_TWIN_FN inline void copy_ubuf_to_gm_align_b##bits(void* dst, void* src, uint8_t sid, uint16_t nBurst, uint32_t lenBurst, \
                                                               uint8_t left, uint8_t right, uint32_t srcGap, uint32_t dstGap) {      \
        (void)sid;                                                                                                                  \
        if (left != 0 || right != 0)                                                                                                \
            ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, "copy_ubuf_to_gm_align_b" #bits,                          \
                                 "padding applies to GM->UB copies only; pass 0 for leftPaddingNum and rightPaddingNum");          \
        ascendopt_twin::detail::copy_ubuf_to_gm_align<E>(dst, src, nBurst, lenBurst, srcGap, dstGap);                              \
    }
ASCENDOPT_TWIN_ALIGN_COPIES(8, uint8_t)
ASCENDOPT_TWIN_ALIGN_COPIES(16, uint16_t)
ASCENDOPT_TWIN_ALIGN_COPIES(32, uint32_t)
#undef ASCENDOPT_TWIN_ALIGN_COPIES

// The 16 x 16 transpose of 16-bit elements (512 bytes), as the Transpose API's basic form.
template <class T>
ASCENDOPT_TWIN_FN void vtranspose(T* dst, T* src) {
    static_assert(sizeof(T) == 2, "vtranspose takes 16-bit elements");
    using namespace ascendopt_twin::detail;
    const auto d = ub_tensor(dst), s = ub_tensor(src);
    require_count(256, d, "vtranspose", "destination");
    require_count(256, s, "vtranspose", "source");
    T in[256];
    ascendopt_twin::raw_copy(in, s.data(), sizeof(in));
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 16; ++c) ascendopt_twin::raw_copy(d.data() + c * 16 + r, &in[r * 16 + c], sizeof(T));
    ascendopt_twin::account_vector("vtranspose", 512, d.data(), s.data());
}

// The device compiler's scalar built-ins min and max, which kernels call unqualified on the
// scalar unit. Mixed arguments compare in their common type, as the built-ins' overloads for
// each scalar type do after the usual conversions.
template <class A, class B, class = std::enable_if_t<std::is_arithmetic_v<A> && std::is_arithmetic_v<B>>>
ASCENDOPT_TWIN_FN constexpr std::common_type_t<A, B> min(A a, B b) {
    using C = std::common_type_t<A, B>;
    return C(b) < C(a) ? C(b) : C(a);
}
template <class A, class B, class = std::enable_if_t<std::is_arithmetic_v<A> && std::is_arithmetic_v<B>>>
ASCENDOPT_TWIN_FN constexpr std::common_type_t<A, B> max(A a, B b) {
    using C = std::common_type_t<A, B>;
    return C(a) < C(b) ? C(b) : C(a);
}

// The CTRL register (get_ctrl / set_ctrl) and the bit helpers kernels change it with. The twin
// keeps each core's value, so a kernel reads back what it wrote; no bit changes what the twin
// computes (saturation and the other modes it selects are not modelled: docs/twin.md).
namespace ascendopt_twin::detail {
inline uint64_t& ctrl_register() {
    static thread_local uint64_t value = 0;
    return value;
}
}  // namespace ascendopt_twin::detail
ASCENDOPT_TWIN_FN inline uint64_t get_ctrl() { return ascendopt_twin::detail::ctrl_register(); }
ASCENDOPT_TWIN_FN inline void set_ctrl(uint64_t value) { ascendopt_twin::detail::ctrl_register() = value; }
ASCENDOPT_TWIN_FN inline uint64_t sbitset1(uint64_t value, uint64_t bit) { return value | (uint64_t(1) << (bit & 63)); }
ASCENDOPT_TWIN_FN inline uint64_t sbitset0(uint64_t value, uint64_t bit) { return value & ~(uint64_t(1) << (bit & 63)); }

// PRELOAD(n): prefetch the next n instruction-cache lines. The twin has no instruction cache,
// so it changes neither results nor the modelled time.
ASCENDOPT_TWIN_FN inline void PRELOAD(int64_t lines) { (void)lines; }

// The compiler's built-in block index, which older kernels read as a variable: GetBlockIdx()
// on the calling core.
struct AscendoptBlockIdxBuiltin {
    ASCENDOPT_TWIN_FN operator int64_t() const { return ascendopt_twin::block_idx(); }
};
inline constexpr AscendoptBlockIdxBuiltin block_idx{};

// The maxMin register GetReduceMaxMinCount reads, raw: after a ReduceMax/ReduceMin (or the
// WholeReduce forms), the bits of the extreme value as a float in the low 32 bits (as GetAccVal
// gives ReduceSum's) and its index in the high 32 bits. Our reading of the layout, from
// add_rms_norm_dynamic_quant, which reads the low word as a float after a float ReduceMax.
ASCENDOPT_TWIN_FN inline uint64_t get_max_min_cnt() {
    const auto& s = ascendopt_twin::reduce_state();
    return (uint64_t(s.index) << 32) | ascendopt_twin::float_bits(static_cast<float>(s.value));
}
