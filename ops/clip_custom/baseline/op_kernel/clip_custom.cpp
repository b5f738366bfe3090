// ClipCustom kernel: double-buffered in and out queues; Maxs then Mins.
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 1;

class KernelClip {
public:
    __aicore__ inline KernelClip() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ClipCustomTilingData& t)
    {
        const uint32_t start = GetBlockIdx() * t.blockLength;
        length = t.totalLength - start < t.blockLength ? t.totalLength - start : t.blockLength;
        tileLength = t.tileLength;
        lower = static_cast<DTYPE_X>(t.lower);
        upper = static_cast<DTYPE_X>(t.upper);
        xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x + start, length);
        yGm.SetGlobalBuffer((__gm__ DTYPE_Y*)y + start, length);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLength * sizeof(DTYPE_X));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLength * sizeof(DTYPE_Y));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t done = 0; done < length; done += tileLength) {
            const uint32_t n = length - done < tileLength ? length - done : tileLength;
            LocalTensor<DTYPE_X> xLocal = inQueue.AllocTensor<DTYPE_X>();
            DataCopyPad(xLocal, xGm[done], {1, static_cast<uint32_t>(n * sizeof(DTYPE_X)), 0, 0, 0}, {false, 0, 0, 0});
            inQueue.EnQue(xLocal);
            Compute(n);
            LocalTensor<DTYPE_Y> yLocal = outQueue.DeQue<DTYPE_Y>();
            DataCopyPad(yGm[done], yLocal, {1, static_cast<uint32_t>(n * sizeof(DTYPE_Y)), 0, 0, 0});
            outQueue.FreeTensor(yLocal);
        }
    }

private:
    __aicore__ inline void Compute(uint32_t n)
    {
        constexpr uint32_t blockElems = 32 / sizeof(DTYPE_X);
        const uint32_t aligned = (n + blockElems - 1) / blockElems * blockElems;
        LocalTensor<DTYPE_X> xLocal = inQueue.DeQue<DTYPE_X>();
        LocalTensor<DTYPE_Y> yLocal = outQueue.AllocTensor<DTYPE_Y>();
        Maxs(yLocal, xLocal, lower, aligned);
        Mins(yLocal, yLocal, upper, aligned);
        PipeBarrier<PIPE_ALL>();
        outQueue.EnQue(yLocal);
        inQueue.FreeTensor(xLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    GlobalTensor<DTYPE_X> xGm;
    GlobalTensor<DTYPE_Y> yGm;
    uint32_t length = 0;
    uint32_t tileLength = 0;
    DTYPE_X lower;
    DTYPE_X upper;
};

extern "C" __global__ __aicore__ void clip_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelClip op;
    op.Init(x, y, tilingData);
    op.Process();
}
