// ArangeCustom kernel: CreateVecIndex, then scale by step and shift by start.
#include "kernel_operator.h"
using namespace AscendC;

class KernelArange {
public:
    __aicore__ inline KernelArange() {}
    __aicore__ inline void Init(GM_ADDR y, const ArangeCustomTilingData& t)
    {
        first = GetBlockIdx() * t.blockLength;
        length = t.totalLength - first < t.blockLength ? t.totalLength - first : t.blockLength;
        tileLength = t.tileLength;
        start = static_cast<DTYPE_Y>(t.start);
        step = static_cast<DTYPE_Y>(t.step);
        yGm.SetGlobalBuffer((__gm__ DTYPE_Y*)y + first, length);
        pipe.InitBuffer(outQueue, 2, tileLength * sizeof(DTYPE_Y));
    }
    __aicore__ inline void Process()
    {
        constexpr uint32_t blockElems = 32 / sizeof(DTYPE_Y);
        for (uint32_t done = 0; done < length; done += tileLength) {
            const uint32_t n = length - done < tileLength ? length - done : tileLength;
            const uint32_t aligned = (n + blockElems - 1) / blockElems * blockElems;
            LocalTensor<DTYPE_Y> yLocal = outQueue.AllocTensor<DTYPE_Y>();
            CreateVecIndex(yLocal, static_cast<DTYPE_Y>(first + done), aligned);
            Muls(yLocal, yLocal, step, aligned);
            Adds(yLocal, yLocal, start, aligned);
            outQueue.EnQue(yLocal);
            yLocal = outQueue.DeQue<DTYPE_Y>();
            DataCopyPad(yGm[done], yLocal, {1, static_cast<uint32_t>(n * sizeof(DTYPE_Y)), 0, 0, 0});
            outQueue.FreeTensor(yLocal);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECOUT, 2> outQueue;
    GlobalTensor<DTYPE_Y> yGm;
    uint32_t first = 0;
    uint32_t length = 0;
    uint32_t tileLength = 0;
    DTYPE_Y start;
    DTYPE_Y step;
};

extern "C" __global__ __aicore__ void arange_custom(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelArange op;
    op.Init(y, tilingData);
    op.Process();
}
