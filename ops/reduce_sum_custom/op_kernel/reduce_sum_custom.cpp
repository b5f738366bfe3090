// ReduceSumCustom kernel: one strided DataCopyPad brings a tile of rows (each padded to a
// 32-byte block), ReduceSum per row, results gathered in a UB tile and copied out at once.
#include "kernel_operator.h"
using namespace AscendC;

class KernelReduceSum {
public:
    __aicore__ inline KernelReduceSum() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ReduceSumCustomTilingData& t)
    {
        tiling = t;
        const uint32_t firstRow = GetBlockIdx() * t.rowsPerCore;
        rows = t.rows - firstRow < t.rowsPerCore ? t.rows - firstRow : t.rowsPerCore;
        xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x + firstRow * t.cols, rows * t.cols);
        yGm.SetGlobalBuffer((__gm__ DTYPE_Y*)y + firstRow, rows);
        pipe.InitBuffer(inQueue, 2, t.rowsPerTile * t.alignedCols * sizeof(DTYPE_X));
        pipe.InitBuffer(outQueue, 1, (t.rowsPerTile + 16) * sizeof(DTYPE_Y));
        pipe.InitBuffer(workBuf, t.alignedCols * sizeof(DTYPE_X));
        pipe.InitBuffer(sumBuf, 32);
    }
    __aicore__ inline void Process()
    {
        for (uint32_t row = 0; row < rows; row += tiling.rowsPerTile) {
            const uint32_t n = rows - row < tiling.rowsPerTile ? rows - row : tiling.rowsPerTile;
            LocalTensor<DTYPE_X> xLocal = inQueue.AllocTensor<DTYPE_X>();
            DataCopyExtParams params{static_cast<uint16_t>(n), static_cast<uint32_t>(tiling.cols * sizeof(DTYPE_X)), 0, 0, 0};
            DataCopyPad(xLocal, xGm[row * tiling.cols], params, {false, 0, 0, 0});
            inQueue.EnQue(xLocal);
            xLocal = inQueue.DeQue<DTYPE_X>();
            LocalTensor<DTYPE_Y> yLocal = outQueue.AllocTensor<DTYPE_Y>();
            LocalTensor<DTYPE_X> work = workBuf.Get<DTYPE_X>();
            LocalTensor<DTYPE_X> sum = sumBuf.Get<DTYPE_X>();
            for (uint32_t r = 0; r < n; ++r) {
                ReduceSum(sum, xLocal[r * tiling.alignedCols], work, tiling.cols);
                SetFlag<HardEvent::V_S>(EVENT_ID0);  // the scalar read waits for the vector result
                WaitFlag<HardEvent::V_S>(EVENT_ID0);
                yLocal.SetValue(r, sum.GetValue(0));
            }
            inQueue.FreeTensor(xLocal);
            outQueue.EnQue(yLocal);
            yLocal = outQueue.DeQue<DTYPE_Y>();
            DataCopyPad(yGm[row], yLocal, {1, static_cast<uint32_t>(n * sizeof(DTYPE_Y)), 0, 0, 0});
            outQueue.FreeTensor(yLocal);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    TBuf<QuePosition::VECCALC> workBuf, sumBuf;
    GlobalTensor<DTYPE_X> xGm;
    GlobalTensor<DTYPE_Y> yGm;
    ReduceSumCustomTilingData tiling;
    uint32_t rows = 0;
};

extern "C" __global__ __aicore__ void reduce_sum_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelReduceSum op;
    op.Init(x, y, tilingData);
    op.Process();
}
