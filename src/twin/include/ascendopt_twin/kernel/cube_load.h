// Data movement into the cube: DataCopy GM -> L1 with ND -> NZ conversion (Nd2NzParams),
// LoadData (LoadData2DParams: GM/L1 -> L0A/L0B in 512-byte fractals, optionally transposing
// each 16x16 b16 fractal), LoadDataWithTranspose (LoadData2dTransposeParams) and
// InitConstValue / Fill (InitConstValueParams). Semantics as the Ascend C documentation gives
// them ("矩阵计算的搬入"); cube_common.h has the fractal layouts. Each call is one instruction:
// GM sources on MTE2 (a DMA), L1 sources on MTE1 at the SoC's L1 -> L0A / L0B rates.
#pragma once

#include "ascendopt_twin/attrs.h"

#include <cstring>

#include "ascendopt_twin/kernel/cube_common.h"

namespace AscendC {

struct Nd2NzParams {
    uint16_t ndNum = 0;              // ND matrices
    uint16_t nValue = 0;             // rows of each
    uint16_t dValue = 0;             // columns of each (a row not a whole 32 bytes is padded with zeros)
    uint16_t srcNdMatrixStride = 0;  // elements between the ND matrices in GM
    uint16_t srcDValue = 0;          // elements per GM row
    uint16_t dstNzC0Stride = 0;      // 32-byte blocks between the Z columns of the destination
    uint16_t dstNzNStride = 0;       // 32-byte blocks between destination rows
    uint16_t dstNzMatrixStride = 0;  // elements between the NZ matrices in the destination
    Nd2NzParams() = default;
    ASCENDOPT_TWIN_FN Nd2NzParams(uint16_t nd, uint16_t n, uint16_t d, uint16_t srcNdStride, uint16_t srcD, uint16_t c0Stride,
                                  uint16_t nStride, uint16_t dstNdStride)
        : ndNum(nd), nValue(n), dValue(d), srcNdMatrixStride(srcNdStride), srcDValue(srcD), dstNzC0Stride(c0Stride),
          dstNzNStride(nStride), dstNzMatrixStride(dstNdStride) {}
};

struct LoadData2DParams {
    uint16_t startIndex = 0;  // first fractal (512 bytes) of the source
    uint8_t repeatTimes = 0;  // fractals moved
    uint16_t srcStride = 0;   // fractals between consecutive source fractals
    uint8_t sid = 0;
    uint16_t dstGap = 0;      // fractals left free between consecutive destination fractals
    bool ifTranspose = false;  // transpose each 16x16 fractal (b16, L1 sources only)
    uint8_t addrMode = 0;      // 0: source fractal index increases, 1: decreases
    LoadData2DParams() = default;
    ASCENDOPT_TWIN_FN LoadData2DParams(uint16_t start, uint8_t repeat, uint16_t src, uint8_t s, uint16_t gap, bool transpose,
                                       uint8_t mode)
        : startIndex(start), repeatTimes(repeat), srcStride(src), sid(s), dstGap(gap), ifTranspose(transpose), addrMode(mode) {}
};
using LoadData2dParams = LoadData2DParams;

struct LoadData2dTransposeParams {
    uint16_t startIndex = 0;   // first square matrix of the source
    uint8_t repeatTimes = 0;   // square matrices moved
    uint16_t srcStride = 0;    // square matrices between consecutive sources
    uint16_t dstGap = 0;       // fractals between one repeat's first destination fractal and the next's
    uint16_t dstFracGap = 0;   // fractals between the destination fractals of one repeat (b8 / b32)
    uint8_t addrMode = 0;
    LoadData2dTransposeParams() = default;
    ASCENDOPT_TWIN_FN LoadData2dTransposeParams(uint16_t start, uint8_t repeat, uint16_t src, uint16_t gap, uint16_t fracGap,
                                                uint8_t mode)
        : startIndex(start), repeatTimes(repeat), srcStride(src), dstGap(gap), dstFracGap(fracGap), addrMode(mode) {}
};

template <class U>
struct InitConstValueParams {
    uint16_t repeatTimes = 0;
    uint16_t blockNum = 0;  // blocks per repeat: 32 bytes in L1, 512 bytes in L0A / L0B
    uint16_t dstGap = 0;    // blocks between repeats
    U initValue = U();
    InitConstValueParams() = default;
    ASCENDOPT_TWIN_FN InitConstValueParams(uint16_t repeat, uint16_t blocks, uint16_t gap, U value)
        : repeatTimes(repeat), blockNum(blocks), dstGap(gap), initValue(value) {}
};

}  // namespace AscendC

namespace ascendopt_twin::cube {

// The MTE1 cycles of moving `bytes` from L1 into `dst` (L0A, L0B, BT or FB), before set-up.
ASCENDOPT_TWIN_FN inline double mte1_cycles(Mem dst, uint64_t bytes) {
    const CubeTiming& t = cube_timing();
    const double rate = dst == Mem::L0A ? t.mte1_l0a_bytes_per_cycle : dst == Mem::L0B ? t.mte1_l0b_bytes_per_cycle : t.mte1_bt_bytes_per_cycle;
    return double(bytes) / rate;
}

// ND (GM, row-major) -> NZ (L1, or UB on the vector side): entry point of DataCopy with
// Nd2NzParams. Each source row of `dValue` elements becomes ceil(dValue * sizeof(T) / 32)
// 32-byte blocks; block k of row j of matrix i lands at
//   i * dstNzMatrixStride + j * dstNzNStride * C0 + k * dstNzC0Stride * C0   (elements),
// and the part of a last block past dValue is zeros.
template <class T>
ASCENDOPT_TWIN_FN void nd2nz(const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src, const AscendC::Nd2NzParams& p) {
    const char* api = "DataCopy(Nd2NzParams)";
    if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0) return;  // documented NOP
    constexpr uint64_t e = sizeof(T), c = c0<T>();
    if (p.ndNum > 4095 || p.nValue > 16384 || p.srcDValue == 0 || p.dstNzC0Stride == 0 || p.dstNzC0Stride > 16384 || p.dstNzNStride == 0 ||
        p.dstNzNStride > 16384 || p.dstNzMatrixStride > 16384)
        fail(ErrorKind::run_failed, api,
             "parameters out of the documented ranges: ndNum " + num(p.ndNum) + " (0..4095), nValue " + num(p.nValue) + " (0..16384), srcDValue " +
                 num(p.srcDValue) + " (1..65535), dstNzC0Stride " + num(p.dstNzC0Stride) + " and dstNzNStride " + num(p.dstNzNStride) +
                 " (1..16384), dstNzMatrixStride " + num(p.dstNzMatrixStride) + " (0..16384)");
    if (p.srcDValue < p.dValue)
        fail(ErrorKind::run_failed, api, "srcDValue " + num(p.srcDValue) + " is smaller than dValue " + num(p.dValue) + ": GM rows would overlap");
    const uint64_t blocks = ceil_div(p.dValue, c);
    const uint64_t last_dst = uint64_t(p.ndNum - 1) * p.dstNzMatrixStride + uint64_t(p.nValue - 1) * p.dstNzNStride * c +
                              (blocks - 1) * p.dstNzC0Stride * c + c;
    require_local(api, "destination", dst, {Mem::L1, Mem::UB}, 32, last_dst * e);
    const uint64_t src_elems = uint64_t(p.ndNum - 1) * p.srcNdMatrixStride + uint64_t(p.nValue - 1) * p.srcDValue + p.dValue;
    const T* g = reinterpret_cast<const T*>(gm_translate(src.address(), src_elems * e, false, api, src.origin()));
    T* d = dst.data();
    for (uint64_t i = 0; i < p.ndNum; ++i)
        for (uint64_t j = 0; j < p.nValue; ++j) {
            const T* row = g + i * p.srcNdMatrixStride + j * p.srcDValue;
            T* out = d + i * p.dstNzMatrixStride + j * p.dstNzNStride * c;
            for (uint64_t k = 0; k < blocks; ++k) {
                T* block = out + k * p.dstNzC0Stride * c;
                const uint64_t valid = std::min<uint64_t>(c, p.dValue - k * c);
                ascendopt_twin::raw_copy(block, row + k * c, valid * e);
                if (valid < c) ascendopt_twin::raw_fill(static_cast<void*>(block + valid), 0, (c - valid) * e);
            }
        }
    account_copy(PipeId::MTE2, "DataCopy(Nd2Nz)", uint64_t(p.ndNum) * p.nValue * blocks * 32, uint32_t(uint64_t(p.ndNum) * p.nValue), dst.data());
}

// Transposes one 16x16 b16 fractal.
ASCENDOPT_TWIN_FN inline void transpose16(uint16_t* dst, const uint16_t* src) {
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 16; ++c) dst[r * 16 + c] = src[c * 16 + r];
}

// LoadData with LoadData2DParams from an on-chip or GM source: repeat r moves source fractal
// startIndex +/- r * srcStride to destination fractal r * (dstGap + 1).
template <class T>
ASCENDOPT_TWIN_FN void load2d(const AscendC::LocalTensor<T>& dst, const uint8_t* src_base, bool src_is_gm, const AscendC::LoadData2DParams& p,
                              const char* api) {
    if (p.repeatTimes == 0) return;  // documented NOP
    if (p.ifTranspose && (sizeof(T) != 2 || src_is_gm))
        fail(ErrorKind::run_failed, api,
             std::string("ifTranspose is documented for b16 data from L1 only; here the data is ") + num(sizeof(T)) + "-byte" +
                 (src_is_gm ? " from GM" : ""));
    const uint64_t dst_bytes = (uint64_t(p.repeatTimes - 1) * (p.dstGap + 1) + 1) * k_fractal_bytes;
    const Mem dm = require_local(api, "destination", dst, src_is_gm ? std::initializer_list<Mem>{Mem::L0A, Mem::L0B, Mem::L1}
                                                                     : std::initializer_list<Mem>{Mem::L0A, Mem::L0B},
                                 dst.data() && mem_at(dst.data()) == Mem::L1 ? 32 : k_fractal_bytes, dst_bytes);
    auto* d = reinterpret_cast<uint8_t*>(dst.data());
    for (uint64_t r = 0; r < p.repeatTimes; ++r) {
        const int64_t index = int64_t(p.startIndex) + (p.addrMode ? -1 : 1) * int64_t(r) * p.srcStride;
        if (index < 0)
            fail(ErrorKind::run_failed, api, "with addrMode 1 repeat " + num(r) + " reads source fractal " + std::to_string(index));
        const uint8_t* s = src_base + uint64_t(index) * k_fractal_bytes;
        uint8_t* o = d + r * (p.dstGap + 1) * k_fractal_bytes;
        if (p.ifTranspose) transpose16(reinterpret_cast<uint16_t*>(o), reinterpret_cast<const uint16_t*>(s));
        else ascendopt_twin::raw_move(o, s, k_fractal_bytes);
    }
    const uint64_t bytes = uint64_t(p.repeatTimes) * k_fractal_bytes;
    if (src_is_gm) account_copy(PipeId::MTE2, "LoadData", bytes, p.repeatTimes, dst.data());
    else account_cube(PipeId::MTE1, "LoadData", mte1_cycles(dm, bytes), bytes, {dst.data(), src_base});
}

// The source fractals a LoadData reads: from startIndex, repeatTimes of them srcStride apart.
ASCENDOPT_TWIN_FN inline uint64_t load2d_source_bytes(const AscendC::LoadData2DParams& p) {
    if (p.repeatTimes == 0) return 0;
    const uint64_t last = p.addrMode ? p.startIndex : uint64_t(p.startIndex) + uint64_t(p.repeatTimes - 1) * p.srcStride;
    return (last + 1) * k_fractal_bytes;
}

}  // namespace ascendopt_twin::cube

namespace AscendC {

// GM -> L1 (or UB) with ND -> NZ conversion.
template <class T>
ASCENDOPT_TWIN_FN void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& params) {
    ascendopt_twin::cube::nd2nz(dst, src, params);
}

// L1 -> L0A / L0B, fractal by fractal.
template <class T>
ASCENDOPT_TWIN_FN void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParams& params) {
    using namespace ascendopt_twin::cube;
    ascendopt_twin::require_core(ascendopt_twin::CoreKind::aic, "LoadData");
    require_local("LoadData", "source", src, {ascendopt_twin::Mem::L1}, 32, load2d_source_bytes(params));
    load2d(dst, reinterpret_cast<const uint8_t*>(src.data()), false, params, "LoadData");
}

// GM -> L0A / L0B / L1, fractal by fractal (no transpose).
template <class T>
ASCENDOPT_TWIN_FN void LoadData(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const LoadData2DParams& params) {
    using namespace ascendopt_twin::cube;
    ascendopt_twin::require_core(ascendopt_twin::CoreKind::aic, "LoadData");
    const uint64_t bytes = load2d_source_bytes(params);
    if (bytes == 0) return;
    load2d(dst, ascendopt_twin::gm_translate(src.address(), bytes, false, "LoadData(GM)", src.origin()), true, params, "LoadData(GM)");
}

// L1 -> L0A / L0B, transposing square matrices: b16 16x16 fractals; b8 32x32 squares (two
// 16x32 fractals, rows contiguous) split into two 16x32 fractals of the transpose; b32 16x16
// squares made of two 16x8 fractals side by side, split into two 16x8 fractals of the
// transpose's column halves. dstFracGap separates a repeat's two fractals (b8, b32).
template <class T>
ASCENDOPT_TWIN_FN void LoadDataWithTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2dTransposeParams& p) {
    using namespace ascendopt_twin;
    using namespace ascendopt_twin::cube;
    const char* api = "LoadDataWithTranspose";
    require_core(CoreKind::aic, api);
    if (p.repeatTimes == 0) return;
    constexpr uint64_t e = sizeof(T);
    static_assert(e == 1 || e == 2 || e == 4, "LoadDataWithTranspose moves b8, b16 or b32 data");
    constexpr uint64_t square_bytes = e == 2 ? 512 : 1024;
    constexpr uint64_t fractals = e == 2 ? 1 : 2;
    const uint64_t last_src = p.addrMode ? p.startIndex : uint64_t(p.startIndex) + uint64_t(p.repeatTimes - 1) * p.srcStride;
    require_local(api, "source", src, {Mem::L1}, 32, (last_src + 1) * square_bytes);
    const uint64_t dst_bytes = (uint64_t(p.repeatTimes - 1) * (p.dstGap + 1) + (fractals - 1) * (p.dstFracGap + 1) + 1) * k_fractal_bytes;
    const Mem dm = require_local(api, "destination", dst, {Mem::L0A, Mem::L0B}, k_fractal_bytes, dst_bytes);
    const auto* s8 = reinterpret_cast<const uint8_t*>(src.data());
    auto* d8 = reinterpret_cast<uint8_t*>(dst.data());
    for (uint64_t r = 0; r < p.repeatTimes; ++r) {
        const int64_t index = int64_t(p.startIndex) + (p.addrMode ? -1 : 1) * int64_t(r) * p.srcStride;
        const T* sq = reinterpret_cast<const T*>(s8 + uint64_t(index) * square_bytes);
        for (uint64_t f = 0; f < fractals; ++f) {
            T* out = reinterpret_cast<T*>(d8 + (r * (p.dstGap + 1) + f * (p.dstFracGap + 1)) * k_fractal_bytes);
            if constexpr (e == 2) {
                for (int i = 0; i < 16; ++i)
                    for (int j = 0; j < 16; ++j) out[i * 16 + j] = sq[j * 16 + i];
            } else if constexpr (e == 1) {  // fractal f: rows 16f..16f+15 of the 32x32 transpose
                for (int i = 0; i < 16; ++i)
                    for (int j = 0; j < 32; ++j) out[i * 32 + j] = sq[j * 32 + (16 * int(f) + i)];
            } else {  // square (r, c) = fractal c/8, element r*8 + c%8; fractal f: columns 8f..8f+7 of the transpose
                for (int i = 0; i < 16; ++i)
                    for (int j = 0; j < 8; ++j) {
                        const int sr = 8 * int(f) + j, sc = i;  // transpose(i, 8f + j) = square(8f + j, i)
                        out[i * 8 + j] = sq[(sc / 8) * 128 + sr * 8 + sc % 8];
                    }
            }
        }
    }
    const uint64_t bytes = uint64_t(p.repeatTimes) * fractals * k_fractal_bytes;
    account_cube(PipeId::MTE1, "LoadDataWithTranspose", mte1_cycles(dm, bytes), bytes, {dst.data(), src.data()});
}

// Fills `dst` (L1: 32-byte blocks, on MTE2; L0A / L0B: 512-byte blocks, on MTE1) with a value:
// repeatTimes repeats of blockNum blocks, dstGap blocks apart.
template <class T, class U = T>
ASCENDOPT_TWIN_FN void InitConstValue(const LocalTensor<T>& dst, const InitConstValueParams<U>& p) {
    using namespace ascendopt_twin;
    using namespace ascendopt_twin::cube;
    const char* api = "InitConstValue";
    require_core(CoreKind::aic, api);
    if (p.repeatTimes == 0 || p.blockNum == 0) return;
    const Mem m = mem_at(dst.data());
    const uint64_t block = m == Mem::L1 ? 32 : k_fractal_bytes;
    const uint64_t bytes = (uint64_t(p.repeatTimes - 1) * (p.blockNum + p.dstGap) + p.blockNum) * block;
    require_local(api, "destination", dst, {Mem::L1, Mem::L0A, Mem::L0B}, uint32_t(block), bytes);
    const T value = static_cast<T>(p.initValue);
    for (uint64_t r = 0; r < p.repeatTimes; ++r) {
        T* out = reinterpret_cast<T*>(reinterpret_cast<uint8_t*>(dst.data()) + r * (p.blockNum + p.dstGap) * block);
        for (uint64_t i = 0; i < p.blockNum * block / sizeof(T); ++i) out[i] = value;
    }
    const uint64_t moved = uint64_t(p.repeatTimes) * p.blockNum * block;
    if (m == Mem::L1) account_copy(PipeId::MTE2, "InitConstValue", moved, p.repeatTimes, dst.data());
    else account_cube(PipeId::MTE1, "InitConstValue", mte1_cycles(m, moved), moved, {dst.data()});
}
// The newer name of InitConstValue.
template <class T, class U = T>
ASCENDOPT_TWIN_FN void Fill(const LocalTensor<T>& dst, const InitConstValueParams<U>& p) {
    InitConstValue(dst, p);
}

}  // namespace AscendC
