// ComplexAbs kernel: each core loads its share of x as interleaved (real, imaginary) floats,
// squares them, adds each pair with scalar code, then takes the square root and scales.
#include "kernel_operator.h"

class KernelComplexAbs {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ComplexAbsTilingData& t)
    {
        const uint32_t first = AscendC::GetBlockIdx() * t.perCore;
        count = t.total - first < t.perCore ? t.total - first : t.perCore;
        scale = t.scale;
        xGm.SetGlobalBuffer((__gm__ float*)x + 2 * first, 2 * count);
        yGm.SetGlobalBuffer((__gm__ float*)y + first, count);
        pipe.InitBuffer(parts, 2 * t.perCore * sizeof(float));
        pipe.InitBuffer(result, t.perCore * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> xy = parts.Get<float>();
        AscendC::LocalTensor<float> out = result.Get<float>();
        AscendC::DataCopyExtParams in{1, static_cast<uint32_t>(2 * count * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(xy, xGm, in, AscendC::DataCopyPadExtParams<float>{false, 0, 0, 0});
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::Mul(xy, xy, xy, static_cast<int32_t>(2 * count));
        AscendC::PipeBarrier<PIPE_ALL>();
        for (uint32_t i = 0; i < count; ++i) {
            out.SetValue(i, xy.GetValue(2 * i) + xy.GetValue(2 * i + 1));
        }
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::Sqrt(out, out, static_cast<int32_t>(count));
        AscendC::Muls(out, out, scale, static_cast<int32_t>(count));
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::DataCopyExtParams o{1, static_cast<uint32_t>(count * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(yGm, out, o);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> parts, result;
    AscendC::GlobalTensor<float> xGm, yGm;
    uint32_t count = 0;
    float scale = 1.0f;
};

extern "C" __global__ __aicore__ void complex_abs(GM_ADDR x, GM_ADDR scale, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    (void)scale;  // its value arrives through the tiling
    GET_TILING_DATA(tilingData, tiling);
    KernelComplexAbs op;
    op.Init(x, y, tilingData);
    op.Process();
}
