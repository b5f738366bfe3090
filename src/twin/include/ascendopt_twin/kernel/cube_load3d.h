// LoadData with LoadData3DParamsV2: the image-to-column (im2col) load from an NC1HWC0 feature map
// in L1 into L0A (Zz, or transposed) or L0B (Zn), and its configuration registers SetFmatrix,
// SetLoadDataPaddingValue, SetLoadDataBoundary and SetLoadDataRepeat (Ascend C docs,
// "LoadData（卷积数据搬运）"). The feature map is C1 x H x W x C0 (C0 = 32 bytes of elements),
// padded by padList = {left, right, top, bottom} with the padding value; column k of the
// im2col matrix is (c1 * Hk * Wk + kh * Wk + kw) * C0 + c0, row m is the output position
// (oh, ow) = (m / Wout, m % Wout); the instruction takes rows mStartPt.. (mExtension of them)
// and columns kStartPt.. (kExtension).
#pragma once

#include "ascendopt_twin/attrs.h"

#include <cstring>

#include "ascendopt_twin/kernel/cube_load.h"

namespace AscendC {

enum class FmatrixMode : uint8_t { FMATRIX_LEFT = 0, FMATRIX_RIGHT = 1 };

struct IsResetLoad3dConfig {
    bool isSetFMatrix = true;  // take l1H, l1W and padList from the parameters (else from SetFmatrix)
    bool isSetPadding = true;  // take padValue from the parameters (else from SetLoadDataPaddingValue)
};
constexpr IsResetLoad3dConfig IS_RESER_LOAD3D_DEFAULT_CONFIG = {true, true};

template <class T>
struct LoadData3DParamsV2 {
    uint8_t padList[4] = {0, 0, 0, 0};
    uint16_t l1H = 0;
    uint16_t l1W = 0;
    uint16_t channelSize = 0;
    uint16_t kExtension = 0;
    uint16_t mExtension = 0;
    uint16_t kStartPt = 0;
    uint16_t mStartPt = 0;
    uint8_t strideW = 1;
    uint8_t strideH = 1;
    uint8_t filterW = 1;
    uint8_t filterH = 1;
    uint8_t dilationFilterW = 1;
    uint8_t dilationFilterH = 1;
    bool enTranspose = false;
    bool enSmallK = false;
    T padValue = T();
    bool filterSizeW = false;
    bool filterSizeH = false;
    bool fMatrixCtrl = false;
};

struct LoadDataRepeatParam {
    uint16_t repeatStride = 0;
    uint8_t repeatTime = 1;
    uint8_t repeatMode = 0;
    LoadDataRepeatParam() = default;
    ASCENDOPT_TWIN_FN LoadDataRepeatParam(uint16_t stride, uint8_t time, uint8_t mode) : repeatStride(stride), repeatTime(time), repeatMode(mode) {}
};

ASCENDOPT_TWIN_FN inline void SetFmatrix(uint16_t l1H, uint16_t l1W, const uint8_t padList[4], const FmatrixMode& mode) {
    auto& s = ascendopt_twin::cube_state();
    if (mode == FmatrixMode::FMATRIX_RIGHT) {
        s.fmatrix_b = true;
        s.fmatrix_b_h = l1H;
        s.fmatrix_b_w = l1W;
        ascendopt_twin::raw_copy(s.fmatrix_b_pad, padList, 4);
    } else {
        s.fmatrix_h = l1H;
        s.fmatrix_w = l1W;
        ascendopt_twin::raw_copy(s.fmatrix_pad, padList, 4);
    }
}
template <class T>
ASCENDOPT_TWIN_FN void SetLoadDataPaddingValue(const T padValue) {
    uint64_t bits = 0;
    ascendopt_twin::raw_copy(&bits, &padValue, sizeof(T) < 8 ? sizeof(T) : 8);
    ascendopt_twin::cube_state().load3d_padding = bits;
}
ASCENDOPT_TWIN_FN inline void SetLoadDataBoundary(uint32_t boundaryValue) { ascendopt_twin::cube_state().load3d_boundary = boundaryValue; }
ASCENDOPT_TWIN_FN inline void SetLoadDataRepeat(const LoadDataRepeatParam& p) {
    auto& s = ascendopt_twin::cube_state();
    s.repeat_stride = p.repeatStride;
    s.repeat_time = p.repeatTime;
    s.repeat_mode = p.repeatMode;
}

}  // namespace AscendC

namespace ascendopt_twin::cube {

// The im2col load: entry point of LoadData with LoadData3DParamsV2.
template <class T>
ASCENDOPT_TWIN_FN void load3d(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, const AscendC::LoadData3DParamsV2<T>& p,
                              const AscendC::IsResetLoad3dConfig& config) {
    const char* api = "LoadData(LoadData3DParamsV2)";
    require_core(CoreKind::aic, api);
    CubeState& st = cube_state();
    const Mem dm = mem_at(dst.data());
    // The feature map's description: from the parameters (they also set the left registers, as
    // the documentation says), or from SetFmatrix: the right registers for L0B when they were set.
    uint16_t h = p.l1H, w = p.l1W;
    uint8_t pad[4];
    ascendopt_twin::raw_copy(pad, p.padList, 4);
    if (config.isSetFMatrix) {
        AscendC::SetFmatrix(p.l1H, p.l1W, p.padList, AscendC::FmatrixMode::FMATRIX_LEFT);
    } else if (dm == Mem::L0B && st.fmatrix_b) {
        h = st.fmatrix_b_h, w = st.fmatrix_b_w;
        ascendopt_twin::raw_copy(pad, st.fmatrix_b_pad, 4);
    } else {
        h = st.fmatrix_h, w = st.fmatrix_w;
        ascendopt_twin::raw_copy(pad, st.fmatrix_pad, 4);
    }
    T pad_value = p.padValue;
    if (config.isSetPadding) AscendC::SetLoadDataPaddingValue(p.padValue);
    else ascendopt_twin::raw_copy(static_cast<void*>(&pad_value), &st.load3d_padding, sizeof(T));
    const uint32_t fw = p.filterW + (p.filterSizeW ? 256 : 0), fh = p.filterH + (p.filterSizeH ? 256 : 0);
    if (h == 0 || w == 0 || p.channelSize == 0 || p.kExtension == 0 || p.mExtension == 0 || fw == 0 || fh == 0) return;  // documented NOP
    if (st.repeat_time == 0) return;
    if (st.repeat_time != 1)
        fail(ErrorKind::run_failed, api,
             "SetLoadDataRepeat with repeatTime " + num(st.repeat_time) + " is not modelled by the twin (repeatTime 1 is)");
    constexpr uint32_t c = c0<T>();
    if (p.channelSize % c != 0)
        fail(ErrorKind::run_failed, api,
             "channelSize " + num(p.channelSize) + " is not a multiple of C0 = " + num(c) + "; the small-channel forms are not modelled by the twin");
    if (p.kStartPt % c != 0) fail(ErrorKind::run_failed, api, "kStartPt " + num(p.kStartPt) + " must be a multiple of " + num(c));
    if (p.strideW == 0 || p.strideH == 0 || p.dilationFilterW == 0 || p.dilationFilterH == 0)
        fail(ErrorKind::run_failed, api, "strides and dilations must be at least 1");
    const bool transpose = dm == Mem::L0B || p.enTranspose;
    if (transpose && sizeof(T) != 2)
        fail(ErrorKind::run_failed, api,
             "a transposing load (into L0B, or enTranspose into L0A) of " + num(sizeof(T)) + "-byte data is not modelled by the twin (b16 is)");
    const uint64_t c1 = p.channelSize / c;
    const uint64_t hkwk = uint64_t(fh) * fw;
    const int64_t kw_dilated = int64_t(fw - 1) * p.dilationFilterW + 1;  // the rows: each output pixel has its own (h, w) start
    const int64_t wout = (int64_t(w) + pad[0] + pad[1] - kw_dilated) / p.strideW + 1;
    if (wout <= 0) fail(ErrorKind::run_failed, api, "the filter is wider than the padded feature map (l1W " + num(w) + ")");
    const uint64_t m1 = ceil_div(p.mExtension, 16), k1 = ceil_div(p.kExtension, c);
    if (uint64_t(p.kStartPt) + k1 * c > c1 * hkwk * c)
        fail(ErrorKind::run_failed, api,
             "kStartPt " + num(p.kStartPt) + " + kExtension " + num(p.kExtension) + " runs past the " + num(c1 * hkwk * c) +
                 " columns of the im2col matrix (channelSize x filter)");
    require_local(api, "source", src, {Mem::L1}, 32, c1 * h * w * c * sizeof(T));
    require_local(api, "destination", dst, {Mem::L0A, Mem::L0B}, k_fractal_bytes, m1 * k1 * 16 * c * sizeof(T));
    const T* s = src.data();
    T* d = dst.data();
    for (uint64_t mi = 0; mi < m1 * 16; ++mi) {
        const int64_t m = int64_t(p.mStartPt + mi);
        const int64_t oh = m / wout, ow = m % wout;
        for (uint64_t ki = 0; ki < k1 * c; ++ki) {
            const uint64_t k = p.kStartPt + ki;
            const uint64_t kb = k / c, cc = k % c, ch = kb / hkwk, pos = kb % hkwk;
            const int64_t hin = oh * p.strideH + int64_t(pos / fw) * p.dilationFilterH - pad[2];
            const int64_t win = ow * p.strideW + int64_t(pos % fw) * p.dilationFilterW - pad[0];
            const bool inside = hin >= 0 && hin < int64_t(h) && win >= 0 && win < int64_t(w);
            const T v = inside ? s[((ch * h + uint64_t(hin)) * w + uint64_t(win)) * c + cc] : pad_value;
            uint64_t at;
            if (dm == Mem::L0B) at = ((mi / 16) * k1 + ki / c) * 16 * c + (ki % c) * 16 + mi % 16;
            else if (transpose) at = ((ki / c) * m1 + mi / 16) * 256 + (ki % c) * 16 + mi % 16;
            else at = ((mi / 16) * k1 + ki / c) * 16 * c + (mi % 16) * c + ki % c;
            d[at] = v;
        }
    }
    const uint64_t bytes = m1 * k1 * 16 * c * sizeof(T);
    account_cube(PipeId::MTE1, "LoadData3D", mte1_cycles(dm, bytes), bytes, {dst.data(), src.data()});
}

}  // namespace ascendopt_twin::cube

namespace AscendC {

template <class T, const IsResetLoad3dConfig& config = IS_RESER_LOAD3D_DEFAULT_CONFIG, class U = T>
ASCENDOPT_TWIN_FN void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV2<U>& params) {
    static_assert(sizeof(U) == sizeof(T), "LoadData3DParamsV2's padValue type must be the data type");
    ascendopt_twin::cube::load3d(dst, src, reinterpret_cast<const LoadData3DParamsV2<T>&>(params), config);
}

// The internal names some kernels call.
template <class T>
ASCENDOPT_TWIN_FN void LoadDataImpl(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParams& params) {
    LoadData(dst, src, params);
}
template <class T, class U = T>
ASCENDOPT_TWIN_FN void LoadDataImpl(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV2<U>& params) {
    LoadData(dst, src, params);
}

}  // namespace AscendC
