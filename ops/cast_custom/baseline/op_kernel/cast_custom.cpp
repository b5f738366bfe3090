// CastCustom kernel: the rounding mode follows the direction of the cast.
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelCast {
public:
    __aicore__ inline KernelCast() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const CastCustomTilingData& t)
    {
        const uint32_t start = GetBlockIdx() * t.blockLength;
        length = t.totalLength - start < t.blockLength ? t.totalLength - start : t.blockLength;
        tileLength = t.tileLength;
        xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x + start, length);
        yGm.SetGlobalBuffer((__gm__ DTYPE_Y*)y + start, length);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLength * sizeof(DTYPE_X));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLength * sizeof(DTYPE_Y));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t done = 0; done < length; done += tileLength) {
            const uint32_t n = length - done < tileLength ? length - done : tileLength;
            const uint32_t aligned = (n + 31) / 32 * 32;
            LocalTensor<DTYPE_X> xLocal = inQueue.AllocTensor<DTYPE_X>();
            DataCopyPad(xLocal, xGm[done], {1, static_cast<uint32_t>(n * sizeof(DTYPE_X)), 0, 0, 0}, {false, 0, 0, 0});
            inQueue.EnQue(xLocal);
            xLocal = inQueue.DeQue<DTYPE_X>();
            LocalTensor<DTYPE_Y> yLocal = outQueue.AllocTensor<DTYPE_Y>();
            const RoundMode mode = sizeof(DTYPE_Y) < sizeof(DTYPE_X) ? RoundMode::CAST_RINT : RoundMode::CAST_NONE;
            Cast(yLocal, xLocal, mode, aligned);
            PipeBarrier<PIPE_ALL>();
            outQueue.EnQue(yLocal);
            inQueue.FreeTensor(xLocal);
            yLocal = outQueue.DeQue<DTYPE_Y>();
            DataCopyPad(yGm[done], yLocal, {1, static_cast<uint32_t>(n * sizeof(DTYPE_Y)), 0, 0, 0});
            outQueue.FreeTensor(yLocal);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    GlobalTensor<DTYPE_X> xGm;
    GlobalTensor<DTYPE_Y> yGm;
    uint32_t length = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void cast_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelCast op;
    op.Init(x, y, tilingData);
    op.Process();
}
