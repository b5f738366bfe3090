// Data movement out of the cube on the FIX pipe: Fixpipe (FixpipeParamsV220) and DataCopy
// (DataCopyCO12DstParams) from L0C to GM or L1, with the conversions the Fixpipe unit does on
// the way (Ascend C docs, "矩阵计算的搬出" and "矩阵搬出关键特性说明"):
// - layout: NZ -> ND (nz2nd: each of ndNum NZ matrices to row-major rows dstStride elements
//   apart) or NZ -> NZ (Z columns dstStride 32-byte blocks apart; int8 outputs merge two
//   16-column blocks into one 16x32 fractal, float outputs with channelSplit split each into two
//   16x8 fractals);
// - quantPre (QuantMode_t): NoQuant, F322F16 / F322BF16 (casts, round to nearest even),
//   DEQF16 (int32 -> half), REQ8 (int32 -> int8/uint8), QF322B8_PRE (float -> int8/uint8), each
//   with a scalar word (deqScalar, SetFixpipePreQuantFlag) or, as V..., a per-column table of
//   uint64 words in L1 (cbufWorkspace) or FB (SetFixPipeConfig);
// - reluEn / reluPre: ReLU (for the quantizing modes: negative values scaled by 0).
// Writes to GM take the core's atomic mode (SetAtomicAdd and the rest, atomic.h).
// The quantization word: bits 31..13 a float scale with 10 mantissa bits, 35..32 N - 1 (shift),
// 36 the shift flag (int32 >> N saturated to int16 first), 45..37 a signed 9-bit offset (REQ8,
// QF322B8_PRE), 46 signed (int8) or unsigned (uint8) output.
#pragma once

#include "ascendopt_twin/attrs.h"

#include <cmath>
#include <type_traits>

#include "ascendopt_twin/kernel/cube_common.h"
#include "ascendopt_twin/runtime_gm.h"

namespace AscendC {

enum QuantMode_t { NoQuant, F322F16, F322BF16, DEQF16, VDEQF16, QF322B8_PRE, VQF322B8_PRE, REQ8, VREQ8 };

enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };
struct FixpipeConfig {
    CO2Layout format;
    bool isToUB = false;
};
constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ};
constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR};

struct FixpipeParamsV220 {
    uint16_t nSize = 0;
    uint16_t mSize = 0;
    uint16_t srcStride = 0;     // C0 rows (16 elements) between the source's Z columns
    uint32_t dstStride = 0;     // ND: elements per destination row; NZ: 32-byte blocks between Z columns
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    uint64_t deqScalar = 0;
    uint16_t ndNum = 1;
    uint16_t srcNdStride = 0;   // 16 x 16 elements between source NZ matrices
    uint16_t dstNdStride = 0;   // elements between destination ND matrices
    bool reluEn = false;
    uint8_t unitFlag = 0;
    bool isChannelSplit = false;
    FixpipeParamsV220() = default;
    ASCENDOPT_TWIN_FN FixpipeParamsV220(uint16_t n, uint16_t m, uint16_t src, uint32_t dst, bool relu)
        : nSize(n), mSize(m), srcStride(src), dstStride(dst), reluEn(relu) {}
};

struct DataCopyCO12DstParams {
    uint8_t sid = 0;
    uint16_t nSize = 0;
    uint16_t mSize = 0;
    uint32_t dstStride = 0;
    uint16_t srcStride = 0;
    uint8_t unitFlag = 0;
    uint8_t clipReluPre = 0;
    uint8_t eltWiseOp = 0;
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    uint8_t reluPre = 0;
    bool channelSplit = false;
    bool nz2ndEn = false;
    DataCopyCO12DstParams() = default;
    ASCENDOPT_TWIN_FN DataCopyCO12DstParams(uint16_t n, uint16_t m, uint32_t dst, uint16_t src, QuantMode_t quant, uint8_t relu, bool split,
                                            bool nz2nd)
        : nSize(n), mSize(m), dstStride(dst), srcStride(src), quantPre(quant), reluPre(relu), channelSplit(split), nz2ndEn(nz2nd) {}
};

// Registers for DataCopy from CO1: NZ -> ND geometry, the scalar quantization word, the
// per-column quantization table (in FB).
ASCENDOPT_TWIN_FN inline void SetFixpipeNz2ndFlag(uint16_t ndNum, uint16_t srcNdStride, uint16_t dstNdStride) {
    auto& s = ascendopt_twin::cube_state();
    s.nz2nd_num = ndNum;
    s.nz2nd_src_stride = srcNdStride;
    s.nz2nd_dst_stride = dstNdStride;
}
ASCENDOPT_TWIN_FN inline void SetFixpipePreQuantFlag(uint64_t config) { ascendopt_twin::cube_state().fix_quant_scalar = config; }
template <class T>
ASCENDOPT_TWIN_FN void SetFixPipeConfig(const LocalTensor<T>& reluPre, const LocalTensor<T>& quantPre, bool isUnitFlag = false) {
    (void)reluPre;
    (void)isUnitFlag;
    ascendopt_twin::cube_state().fix_quant_table = quantPre.data();
}
template <class T, bool setRelu = false>
ASCENDOPT_TWIN_FN void SetFixPipeConfig(const LocalTensor<T>& preData, bool isUnitFlag = false) {
    (void)isUnitFlag;
    if (ascendopt_twin::cube::mem_at(preData.data()) == ascendopt_twin::Mem::FB) ascendopt_twin::cube_state().fix_quant_table = preData.data();
}

}  // namespace AscendC

namespace ascendopt_twin::cube {

// One Fixpipe as the twin executes it, whatever API asked for it.
struct FixJob {
    uint32_t n = 0, m = 0;       // nSize, mSize
    uint32_t src_stride = 0;     // C0 rows between Z columns
    uint64_t dst_stride = 0;     // ND: elements per row; NZ: 32-byte blocks
    bool nd = false;             // NZ -> ND
    uint32_t nd_num = 1;
    uint64_t src_nd_stride = 0;  // 256-element units
    uint64_t dst_nd_stride = 0;  // elements
    AscendC::QuantMode_t quant = AscendC::QuantMode_t::NoQuant;
    uint64_t scalar = 0;         // quantization word of the scalar modes
    const uint64_t* table = nullptr;  // per-column words of the V... modes
    bool relu = false;
    bool channel_split = false;
};

struct QuantWord {
    float scale;
    uint32_t shift;
    bool shift_first;
    int32_t offset;
    bool sign;
};

ASCENDOPT_TWIN_FN inline QuantWord decode_quant(uint64_t w) {
    const int32_t off9 = int32_t((w >> 37) & 0x1FF);
    return {bits_float(uint32_t(w) & 0xFFFFE000u), uint32_t((w >> 32) & 0xF) + 1, ((w >> 36) & 1) != 0, off9 >= 256 ? off9 - 512 : off9,
            ((w >> 46) & 1) != 0};
}

ASCENDOPT_TWIN_FN inline bool quantizing(AscendC::QuantMode_t q) {
    return q != AscendC::QuantMode_t::NoQuant && q != AscendC::QuantMode_t::F322F16 && q != AscendC::QuantMode_t::F322BF16;
}
ASCENDOPT_TWIN_FN inline bool vector_quant(AscendC::QuantMode_t q) {
    return q == AscendC::QuantMode_t::VDEQF16 || q == AscendC::QuantMode_t::VQF322B8_PRE || q == AscendC::QuantMode_t::VREQ8;
}

ASCENDOPT_TWIN_FN inline const char* quant_name(AscendC::QuantMode_t q) {
    static const char* names[] = {"NoQuant", "F322F16", "F322BF16", "DEQF16", "VDEQF16", "QF322B8_PRE", "VQF322B8_PRE", "REQ8", "VREQ8"};
    return unsigned(q) < 9 ? names[q] : "?";
}

// round half to even, as numpy.round
ASCENDOPT_TWIN_FN inline double round_even(double x) { return std::nearbyint(x); }
ASCENDOPT_TWIN_FN inline double clampd(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }

// The value the Fixpipe unit writes for source element `v` of column `col`.
template <class D, class S>
ASCENDOPT_TWIN_FN D convert(S v, uint32_t col, const FixJob& j) {
    using Q = AscendC::QuantMode_t;
    if (!quantizing(j.quant)) {
        if constexpr (std::is_same_v<S, float>) {
            const float x = j.relu && v < 0 ? 0.0f : v;
            return static_cast<D>(x);  // float, or half / bfloat16_t rounded to nearest even
        } else {
            return static_cast<D>(j.relu && v < 0 ? S(0) : v);
        }
    }
    const QuantWord w = decode_quant(vector_quant(j.quant) ? j.table[col] : j.scalar);
    double x;
    // int32 sources become float first (after the optional shift to int16), as the unit computes in float.
    if constexpr (std::is_same_v<S, int32_t>) x = w.shift_first ? clampd(double(v >> w.shift), -32768, 32767) : double(float(v));
    else x = double(v);
    x = float(x * (x >= 0 || !j.relu ? double(w.scale) : 0.0));
    if (j.quant == Q::DEQF16 || j.quant == Q::VDEQF16) return static_cast<D>(float(clampd(x, -65504.0, 65504.0)));
    const double q = clampd(round_even(x), -256, 255) + w.offset;
    return static_cast<D>(w.sign ? clampd(q, -128, 127) : clampd(q, 0, 255));
}

// Checks the output type against the mode, as the documented combinations allow.
template <class D, class S>
ASCENDOPT_TWIN_FN void check_types(const FixJob& j, const char* api) {
    using Q = AscendC::QuantMode_t;
    constexpr bool f32 = std::is_same_v<S, float>, s32 = std::is_same_v<S, int32_t>;
    constexpr bool b8 = std::is_same_v<D, int8_t> || std::is_same_v<D, uint8_t>;
    bool ok = false;
    switch (j.quant) {
        case Q::NoQuant: ok = std::is_same_v<D, S>; break;
        case Q::F322F16: ok = f32 && std::is_same_v<D, half>; break;
        case Q::F322BF16: ok = f32 && std::is_same_v<D, bfloat16_t>; break;
        case Q::DEQF16: case Q::VDEQF16: ok = s32 && std::is_same_v<D, half>; break;
        case Q::REQ8: case Q::VREQ8: ok = s32 && b8; break;
        case Q::QF322B8_PRE: case Q::VQF322B8_PRE: ok = f32 && b8; break;
    }
    if (!ok)
        fail(ErrorKind::run_failed, api,
             std::string("quantPre ") + quant_name(j.quant) + " does not convert the " + num(sizeof(S)) + "-byte L0C type to a " + num(sizeof(D)) +
                 "-byte destination type: NoQuant keeps float/int32, F322F16 gives half, F322BF16 bfloat16_t, (V)DEQF16 int32 -> half, "
                 "(V)REQ8 int32 -> int8/uint8, (V)QF322B8_PRE float -> int8/uint8");
}

// The entry point of Fixpipe / DataCopy from CO1: reads the NZ source from L0C, converts each
// element and writes it to GM at device address `gm_addr` (through gm_write, so the core's
// atomic mode applies, run by contiguous run) or, when `l1` is given, into that L1 tensor;
// charges the FIX pipe.
template <class D, class S>
ASCENDOPT_TWIN_FN void fixpipe(uint64_t gm_addr, const AscendC::LocalTensor<D>* l1, const AscendC::LocalTensor<S>& src, const FixJob& j,
                               const char* api) {
    require_core(CoreKind::aic, api);
    static_assert(std::is_same_v<S, float> || std::is_same_v<S, int32_t>, "L0C holds float or int32_t");
    if (j.n == 0 || j.m == 0 || j.nd_num == 0) return;  // documented NOP
    check_types<D, S>(j, api);
    if (j.n > 4095) fail(ErrorKind::run_failed, api, "nSize " + num(j.n) + " is out of 0..4095");
    constexpr bool b8 = sizeof(D) == 1;
    if (!j.nd && j.channel_split && !(std::is_same_v<S, float> && std::is_same_v<D, float>))
        fail(ErrorKind::run_failed, api, "channelSplit is documented for float -> float only");
    if (!j.nd && j.n % (j.channel_split ? 8 : 16) != 0)
        fail(ErrorKind::run_failed, api, "nSize " + num(j.n) + " must be a multiple of " + num(j.channel_split ? 8 : 16) + " for an NZ destination");
    if (j.nd && j.channel_split) fail(ErrorKind::run_failed, api, "channelSplit and NZ -> ND cannot be combined");
    if (!j.nd && j.dst_stride == 0) fail(ErrorKind::run_failed, api, "dstStride must not be 0");
    if (j.nd && j.dst_stride < j.n)
        fail(ErrorKind::run_failed, api, "dstStride " + num(j.dst_stride) + " (elements per destination row) is smaller than nSize " + num(j.n));
    if (vector_quant(j.quant) && !j.table)
        fail(ErrorKind::run_failed, api, std::string(quant_name(j.quant)) + " needs the per-column quantization table (cbufWorkspace or SetFixPipeConfig)");
    const uint64_t nblocks = ceil_div(j.n, 16);
    const uint64_t src_elems = (j.nd_num - 1) * j.src_nd_stride * 256 + (nblocks - 1) * j.src_stride * 16 + uint64_t(j.m - 1) * 16 + 16;
    require_local(api, "source", src, {Mem::L0C}, 64, src_elems * sizeof(S));
    // Destination element offsets.
    auto dst_offset = [&](uint64_t nd, uint64_t r, uint64_t c) ASCENDOPT_TWIN_FN {
        if (j.nd) return uint64_t(nd * j.dst_nd_stride + r * j.dst_stride + c);
        const uint64_t col_bytes = j.dst_stride * 32;  // between destination Z columns
        if (j.channel_split) return uint64_t(((c / 8) * col_bytes + r * 8 * sizeof(D)) / sizeof(D) + c % 8);
        if (b8) {  // channel merge: 16x32 fractals, a trailing odd 16-column block stays 16 wide
            const uint64_t pair = c / 32;
            const bool tail_single = (nblocks % 2 == 1) && (c / 16 == nblocks - 1);
            const uint64_t width = tail_single ? 16 : 32;
            return uint64_t((pair * col_bytes + r * width * sizeof(D)) / sizeof(D) + c % width);
        }
        return uint64_t(((c / 16) * col_bytes + r * 16 * sizeof(D)) / sizeof(D) + c % 16);
    };
    uint64_t extent = 0;
    for (uint64_t nd = 0; nd < j.nd_num; ++nd) extent = std::max(extent, dst_offset(nd, j.m - 1, j.n - 1) + 1);
    if (!j.nd && b8 && nblocks > 1) extent = std::max(extent, dst_offset(0, j.m - 1, (nblocks & ~uint64_t(1)) * 16 - 1) + 1);
    D* out = nullptr;
    if (l1) {
        require_local(api, "destination", *l1, {Mem::L1}, 32, extent * sizeof(D));
        out = l1->data();
    }
    // GM: runs of consecutive destination elements are gathered (up to k_run) and written with
    // gm_write, so the core's atomic mode applies. (No std containers here: kernel code is
    // instrumented and their loops would be charged as the kernel's scalar work.)
    constexpr uint64_t k_run = 64;
    D run[k_run];
    uint64_t run_at = 0, run_len = 0;
    auto flush = [&]() ASCENDOPT_TWIN_FN {
        if (run_len) gm_write(gm_addr + run_at * sizeof(D), run, run_len * sizeof(D), api);
        run_len = 0;
    };
    const S* in = src.data();
    for (uint64_t nd = 0; nd < j.nd_num; ++nd)
        for (uint64_t r = 0; r < j.m; ++r)
            for (uint64_t c = 0; c < j.n; ++c) {
                const S v = in[nd * j.src_nd_stride * 256 + (c / 16) * j.src_stride * 16 + r * 16 + c % 16];
                const uint64_t at = dst_offset(nd, r, c);
                const D value = convert<D, S>(v, uint32_t(c), j);
                if (out) {
                    out[at] = value;
                    continue;
                }
                if (run_len == k_run || (run_len && at != run_at + run_len)) flush();
                if (run_len == 0) run_at = at;
                run[run_len++] = value;
            }
    flush();
    const uint64_t bytes = uint64_t(j.nd_num) * j.m * j.n * sizeof(D);
    const double local = double(uint64_t(j.nd_num) * j.m * nblocks * 16 * sizeof(S)) / cube_timing().fix_bytes_per_cycle;
    account_cube(PipeId::FIX, "Fixpipe", local, bytes, {l1 ? static_cast<const void*>(l1->data()) : nullptr, src.data(), j.table}, l1 ? 0 : bytes);
}

ASCENDOPT_TWIN_FN inline FixJob job_of(const AscendC::FixpipeParamsV220& p, bool nd) {
    FixJob j;
    j.n = p.nSize;
    j.m = p.mSize;
    j.src_stride = p.srcStride;
    j.dst_stride = p.dstStride;
    j.nd = nd;
    j.nd_num = nd ? p.ndNum : 1;
    j.src_nd_stride = p.srcNdStride;
    j.dst_nd_stride = p.dstNdStride;
    j.quant = p.quantPre;
    j.scalar = p.deqScalar;
    j.table = static_cast<const uint64_t*>(cube_state().fix_quant_table);  // SetFixPipeConfig, unless cbufWorkspace is given
    j.relu = p.reluEn;
    j.channel_split = p.isChannelSplit;
    return j;
}

// The per-column table of the V... modes from an L1 or FB tensor of n uint64 words.
template <class W>
ASCENDOPT_TWIN_FN const uint64_t* quant_table(const AscendC::LocalTensor<W>& t, uint32_t n, const char* api) {
    static_assert(sizeof(W) == 8, "quantization words are uint64_t");
    require_local(api, "quantization table", t, {Mem::L1, Mem::FB}, 32, uint64_t(n) * 8);
    return reinterpret_cast<const uint64_t*>(t.data());
}

}  // namespace ascendopt_twin::cube

namespace AscendC {

// L0C -> GM. CFG_ROW_MAJOR (the default) converts NZ to ND, CFG_NZ keeps NZ.
template <class T, class U, const FixpipeConfig& config = CFG_ROW_MAJOR>
ASCENDOPT_TWIN_FN void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& p) {
    using namespace ascendopt_twin::cube;
    fixpipe<T, U>(dst.address(), nullptr, src, job_of(p, config.format == CO2Layout::ROW_MAJOR), "Fixpipe");
}
// L0C -> GM with the per-column quantization table in L1 (cbufWorkspace).
template <class T, class U, const FixpipeConfig& config = CFG_ROW_MAJOR, class S = uint64_t>
ASCENDOPT_TWIN_FN void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const LocalTensor<S>& cbufWorkspace, const FixpipeParamsV220& p) {
    using namespace ascendopt_twin::cube;
    FixJob j = job_of(p, config.format == CO2Layout::ROW_MAJOR);
    if (j.n != 0 && j.m != 0) j.table = quant_table(cbufWorkspace, j.n, "Fixpipe");
    fixpipe<T, U>(dst.address(), nullptr, src, j, "Fixpipe");
}
// L0C -> L1: NZ only on the 910B (CFG_ROW_MAJOR has no effect on this path).
template <class T, class U, const FixpipeConfig& config = CFG_ROW_MAJOR>
ASCENDOPT_TWIN_FN void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& p) {
    using namespace ascendopt_twin::cube;
    fixpipe<T, U>(0, &dst, src, job_of(p, false), "Fixpipe(L0C->L1)");
}
template <class T, class U, const FixpipeConfig& config = CFG_ROW_MAJOR, class S = uint64_t>
ASCENDOPT_TWIN_FN void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src, const LocalTensor<S>& cbufWorkspace, const FixpipeParamsV220& p) {
    using namespace ascendopt_twin::cube;
    FixJob j = job_of(p, false);
    if (j.n != 0 && j.m != 0) j.table = quant_table(cbufWorkspace, j.n, "Fixpipe(L0C->L1)");
    fixpipe<T, U>(0, &dst, src, j, "Fixpipe(L0C->L1)");
}

}  // namespace AscendC

namespace ascendopt_twin::cube {

// DataCopy from CO1: the registers (SetFixpipeNz2ndFlag, SetFixpipePreQuantFlag,
// SetFixPipeConfig) complete the parameters.
ASCENDOPT_TWIN_FN inline FixJob job_of(const AscendC::DataCopyCO12DstParams& p) {
    const CubeState& s = cube_state();
    FixJob j;
    j.n = p.nSize;
    j.m = p.mSize;
    j.src_stride = p.srcStride;
    j.dst_stride = p.dstStride;
    j.nd = p.nz2ndEn;
    j.nd_num = p.nz2ndEn ? s.nz2nd_num : 1;
    j.src_nd_stride = s.nz2nd_src_stride;
    j.dst_nd_stride = s.nz2nd_dst_stride;
    j.quant = p.quantPre;
    j.scalar = s.fix_quant_scalar;
    j.table = static_cast<const uint64_t*>(s.fix_quant_table);
    j.relu = p.reluPre != 0;
    j.channel_split = p.channelSplit;
    return j;
}

}  // namespace ascendopt_twin::cube

namespace AscendC {

template <class T, class U>
ASCENDOPT_TWIN_FN void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyCO12DstParams& p) {
    using namespace ascendopt_twin::cube;
    fixpipe<T, U>(dst.address(), nullptr, src, job_of(p), "DataCopy(CO1->GM)");
}
template <class T, class U>
ASCENDOPT_TWIN_FN void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyCO12DstParams& p) {
    using namespace ascendopt_twin::cube;
    FixJob j = job_of(p);
    j.nd = false;
    j.nd_num = 1;
    fixpipe<T, U>(0, &dst, src, j, "DataCopy(CO1->L1)");
}

}  // namespace AscendC
