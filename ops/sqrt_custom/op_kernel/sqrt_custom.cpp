// SqrtCustom kernel: single-buffered, mask/repeat form of Sqrt.
#include "kernel_operator.h"
using namespace AscendC;

class KernelSqrt {
public:
    __aicore__ inline KernelSqrt() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SqrtCustomTilingData& t)
    {
        const uint32_t start = GetBlockIdx() * t.perCoreLength;
        length = start >= t.totalLength ? 0 : (t.totalLength - start < t.perCoreLength ? t.totalLength - start : t.perCoreLength);
        tileLength = t.tileLength;
        xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x + start, length);
        yGm.SetGlobalBuffer((__gm__ DTYPE_Y*)y + start, length);
        pipe.InitBuffer(inQueue, 1, tileLength * sizeof(DTYPE_X));
        pipe.InitBuffer(outQueue, 1, tileLength * sizeof(DTYPE_Y));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t done = 0; done < length; done += tileLength) {
            const uint32_t n = length - done < tileLength ? length - done : tileLength;
            LocalTensor<DTYPE_X> xLocal = inQueue.AllocTensor<DTYPE_X>();
            DataCopyPad(xLocal, xGm[done], {1, static_cast<uint32_t>(n * sizeof(DTYPE_X)), 0, 0, 0}, {false, 0, 0, 0});
            inQueue.EnQue(xLocal);
            xLocal = inQueue.DeQue<DTYPE_X>();
            LocalTensor<DTYPE_Y> yLocal = outQueue.AllocTensor<DTYPE_Y>();
            constexpr uint32_t repeatElems = 256 / sizeof(DTYPE_X);
            const uint32_t fullRepeats = n / repeatElems;
            const uint32_t rest = n % repeatElems;
            UnaryRepeatParams params;  // contiguous: block stride 1, repeat stride 8
            if (fullRepeats > 0) {
                Sqrt(yLocal, xLocal, repeatElems, fullRepeats, params);
            }
            if (rest > 0) {
                Sqrt(yLocal[fullRepeats * repeatElems], xLocal[fullRepeats * repeatElems], rest, 1, params);
            }
            outQueue.EnQue(yLocal);
            inQueue.FreeTensor(xLocal);
            yLocal = outQueue.DeQue<DTYPE_Y>();
            DataCopyPad(yGm[done], yLocal, {1, static_cast<uint32_t>(n * sizeof(DTYPE_Y)), 0, 0, 0});
            outQueue.FreeTensor(yLocal);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    GlobalTensor<DTYPE_X> xGm;
    GlobalTensor<DTYPE_Y> yGm;
    uint32_t length = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void sqrt_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelSqrt op;
    op.Init(x, y, tilingData);
    op.Process();
}
