// ReduceMaxCustom kernel; see the host file for the two tiling keys.
#include "kernel_operator.h"
using namespace AscendC;

template <bool SHORT_ROWS>
class KernelReduceMax {
public:
    __aicore__ inline KernelReduceMax() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ReduceMaxCustomTilingData& t)
    {
        tiling = t;
        const uint32_t firstRow = GetBlockIdx() * t.rowsPerCore;
        rows = t.rows - firstRow < t.rowsPerCore ? t.rows - firstRow : t.rowsPerCore;
        xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x + firstRow * t.cols, rows * t.cols);
        yGm.SetGlobalBuffer((__gm__ DTYPE_Y*)y + firstRow, rows);
        pipe.InitBuffer(inQueue, 2, t.rowsPerTile * t.alignedCols * sizeof(DTYPE_X));
        pipe.InitBuffer(outQueue, 2, (t.rowsPerTile + 16) * sizeof(DTYPE_Y));
        pipe.InitBuffer(workBuf, t.alignedCols * sizeof(DTYPE_X) + 32);
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
            if constexpr (SHORT_ROWS) {
                constexpr uint32_t blockElems = 32 / sizeof(DTYPE_X);
                const int32_t rowBlocks = static_cast<int32_t>(tiling.alignedCols / blockElems);
                WholeReduceMax(yLocal, xLocal, static_cast<int32_t>(tiling.cols), static_cast<int32_t>(n), 1, 1, rowBlocks,
                               ReduceOrder::ORDER_ONLY_VALUE);
            } else {
                LocalTensor<DTYPE_X> work = workBuf.Get<DTYPE_X>();
                LocalTensor<DTYPE_X> result = work[tiling.alignedCols];
                for (uint32_t r = 0; r < n; ++r) {
                    ReduceMax(result, xLocal[r * tiling.alignedCols], work, tiling.cols, false);
                    SetFlag<HardEvent::V_S>(EVENT_ID0);  // the scalar read waits for the vector result
                    WaitFlag<HardEvent::V_S>(EVENT_ID0);
                    yLocal.SetValue(r, result.GetValue(0));
                }
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
    TQue<QuePosition::VECOUT, 2> outQueue;
    TBuf<QuePosition::VECCALC> workBuf;
    GlobalTensor<DTYPE_X> xGm;
    GlobalTensor<DTYPE_Y> yGm;
    ReduceMaxCustomTilingData tiling;
    uint32_t rows = 0;
};

extern "C" __global__ __aicore__ void reduce_max_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (TILING_KEY_IS(1)) {
        KernelReduceMax<true> op;
        op.Init(x, y, tilingData);
        op.Process();
    } else {
        KernelReduceMax<false> op;
        op.Init(x, y, tilingData);
        op.Process();
    }
}
