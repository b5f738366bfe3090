// MaximumSelect kernel: Compare writes one bit per element into a TBuf, Select picks.
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 1;

class KernelMaximumSelect {
public:
    __aicore__ inline KernelMaximumSelect() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const MaximumSelectTilingData& t)
    {
        const uint32_t start = GetBlockIdx() * t.blockLength;
        length = t.totalLength - start < t.blockLength ? t.totalLength - start : t.blockLength;
        tileLength = t.tileLength;
        xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x + start, length);
        yGm.SetGlobalBuffer((__gm__ DTYPE_Y*)y + start, length);
        zGm.SetGlobalBuffer((__gm__ DTYPE_Z*)z + start, length);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(DTYPE_X));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(DTYPE_Y));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(DTYPE_Z));
        pipe.InitBuffer(maskBuf, tileLength / 8);
    }
    __aicore__ inline void Process()
    {
        constexpr uint32_t repeatElems = 256 / sizeof(DTYPE_X);
        for (uint32_t done = 0; done < length; done += tileLength) {
            const uint32_t n = length - done < tileLength ? length - done : tileLength;
            const uint32_t padded = (n + repeatElems - 1) / repeatElems * repeatElems;
            LocalTensor<DTYPE_X> xLocal = inQueueX.AllocTensor<DTYPE_X>();
            LocalTensor<DTYPE_Y> yLocal = inQueueY.AllocTensor<DTYPE_Y>();
            DataCopyPad(xLocal, xGm[done], {1, static_cast<uint32_t>(n * sizeof(DTYPE_X)), 0, 0, 0}, {false, 0, 0, 0});
            DataCopyPad(yLocal, yGm[done], {1, static_cast<uint32_t>(n * sizeof(DTYPE_Y)), 0, 0, 0}, {false, 0, 0, 0});
            inQueueX.EnQue(xLocal);
            inQueueY.EnQue(yLocal);
            xLocal = inQueueX.DeQue<DTYPE_X>();
            yLocal = inQueueY.DeQue<DTYPE_Y>();
            LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();
            LocalTensor<DTYPE_Z> zLocal = outQueueZ.AllocTensor<DTYPE_Z>();
            Compare(mask, xLocal, yLocal, CMPMODE::GE, padded);
            Select(zLocal, mask, xLocal, yLocal, SELMODE::VSEL_TENSOR_TENSOR_MODE, padded);
            PipeBarrier<PIPE_ALL>();
            outQueueZ.EnQue(zLocal);
            inQueueX.FreeTensor(xLocal);
            inQueueY.FreeTensor(yLocal);
            zLocal = outQueueZ.DeQue<DTYPE_Z>();
            DataCopyPad(zGm[done], zLocal, {1, static_cast<uint32_t>(n * sizeof(DTYPE_Z)), 0, 0, 0});
            outQueueZ.FreeTensor(zLocal);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
    TBuf<QuePosition::VECCALC> maskBuf;
    GlobalTensor<DTYPE_X> xGm;
    GlobalTensor<DTYPE_Y> yGm;
    GlobalTensor<DTYPE_Z> zGm;
    uint32_t length = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void maximum_select(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelMaximumSelect op;
    op.Init(x, y, z, tilingData);
    op.Process();
}
