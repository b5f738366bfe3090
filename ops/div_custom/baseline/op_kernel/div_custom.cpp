// DivCustom kernel: full tiles in the main loop, then one separate remainder iteration.
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 1;

class KernelDiv {
public:
    __aicore__ inline KernelDiv() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const DivCustomTilingData& t)
    {
        const uint32_t start = GetBlockIdx() * t.blockLength;
        length = t.totalLength - start < t.blockLength ? t.totalLength - start : t.blockLength;
        tileNum = t.tileNum;
        tileLength = t.tileLength;
        xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x + start, length);
        yGm.SetGlobalBuffer((__gm__ DTYPE_Y*)y + start, length);
        zGm.SetGlobalBuffer((__gm__ DTYPE_Z*)z + start, length);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(DTYPE_X));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(DTYPE_Y));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(DTYPE_Z));
    }
    __aicore__ inline void Process()
    {
        const uint32_t fullTiles = length / tileLength < tileNum ? length / tileLength : tileNum;
        for (uint32_t i = 0; i < fullTiles; ++i) {
            Step(i * tileLength, tileLength);
        }
        const uint32_t rest = length - fullTiles * tileLength;
        if (rest > 0) {
            Step(fullTiles * tileLength, rest);
        }
    }

private:
    __aicore__ inline void Step(uint32_t offset, uint32_t n)
    {
        constexpr uint32_t blockElems = 32 / sizeof(DTYPE_X);
        const uint32_t aligned = (n + blockElems - 1) / blockElems * blockElems;
        const bool exact = aligned == n;
        LocalTensor<DTYPE_X> xLocal = inQueueX.AllocTensor<DTYPE_X>();
        LocalTensor<DTYPE_Y> yLocal = inQueueY.AllocTensor<DTYPE_Y>();
        if (exact) {
            DataCopy(xLocal, xGm[offset], n);
            DataCopy(yLocal, yGm[offset], n);
        } else {
            // Pad the divisor's tail with ones so the padded lanes stay finite.
            DataCopyPad(xLocal, xGm[offset], {1, static_cast<uint32_t>(n * sizeof(DTYPE_X)), 0, 0, 0}, {true, 0, 0, 1});
            DataCopyPad(yLocal, yGm[offset], {1, static_cast<uint32_t>(n * sizeof(DTYPE_Y)), 0, 0, 0}, {true, 0, 0, 1});
        }
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
        xLocal = inQueueX.DeQue<DTYPE_X>();
        yLocal = inQueueY.DeQue<DTYPE_Y>();
        LocalTensor<DTYPE_Z> zLocal = outQueueZ.AllocTensor<DTYPE_Z>();
        Div(zLocal, xLocal, yLocal, aligned);
        outQueueZ.EnQue(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
        zLocal = outQueueZ.DeQue<DTYPE_Z>();
        if (exact) {
            DataCopy(zGm[offset], zLocal, n);
        } else {
            DataCopyPad(zGm[offset], zLocal, {1, static_cast<uint32_t>(n * sizeof(DTYPE_Z)), 0, 0, 0});
        }
        outQueueZ.FreeTensor(zLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
    GlobalTensor<DTYPE_X> xGm;
    GlobalTensor<DTYPE_Y> yGm;
    GlobalTensor<DTYPE_Z> zGm;
    uint32_t length = 0;
    uint32_t tileNum = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void div_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelDiv op;
    op.Init(x, y, z, tilingData);
    op.Process();
}
