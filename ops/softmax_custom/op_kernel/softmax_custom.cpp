// SoftmaxCustom kernel: one row at a time; max-subtracted exp, then scale by 1/sum.
#include "kernel_operator.h"
using namespace AscendC;

class KernelSoftmax {
public:
    __aicore__ inline KernelSoftmax() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SoftmaxCustomTilingData& t)
    {
        tiling = t;
        const uint32_t idx = GetBlockIdx();
        rows = t.rowsPerCore + (idx < t.formerCores ? 1 : 0);
        const uint32_t firstRow = idx * t.rowsPerCore + (idx < t.formerCores ? idx : t.formerCores);
        xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x + firstRow * t.cols, rows * t.cols);
        yGm.SetGlobalBuffer((__gm__ DTYPE_Y*)y + firstRow * t.cols, rows * t.cols);
        pipe.InitBuffer(inQueue, 2, t.alignedCols * sizeof(DTYPE_X));
        pipe.InitBuffer(outQueue, 2, t.alignedCols * sizeof(DTYPE_Y));
        pipe.InitBuffer(floatBuf, t.alignedCols * sizeof(float));
        pipe.InitBuffer(workBuf, t.alignedCols * sizeof(float));
        pipe.InitBuffer(scalarBuf, 64);
    }
    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rows; ++r) {
            LocalTensor<DTYPE_X> xLocal = inQueue.AllocTensor<DTYPE_X>();
            DataCopyPad(xLocal, xGm[r * tiling.cols], {1, static_cast<uint32_t>(tiling.cols * sizeof(DTYPE_X)), 0, 0, 0},
                        {false, 0, 0, 0});
            inQueue.EnQue(xLocal);
            Compute();
            LocalTensor<DTYPE_Y> yLocal = outQueue.DeQue<DTYPE_Y>();
            DataCopyPad(yGm[r * tiling.cols], yLocal, {1, static_cast<uint32_t>(tiling.cols * sizeof(DTYPE_Y)), 0, 0, 0});
            outQueue.FreeTensor(yLocal);
        }
    }

private:
    __aicore__ inline void Compute()
    {
        const uint32_t n = tiling.cols;
        LocalTensor<DTYPE_X> xLocal = inQueue.DeQue<DTYPE_X>();
        LocalTensor<float> v = floatBuf.Get<float>();
        if constexpr (sizeof(DTYPE_X) == sizeof(float)) {
            DataCopy(v, xLocal.template ReinterpretCast<float>(), tiling.alignedCols);
        } else {
            Cast(v, xLocal, RoundMode::CAST_NONE, n);
        }
        inQueue.FreeTensor(xLocal);
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> scalar = scalarBuf.Get<float>();
        ReduceMax(scalar, v, work, n, false);
        SetFlag<HardEvent::V_S>(EVENT_ID0);  // the scalar read waits for the vector result
        WaitFlag<HardEvent::V_S>(EVENT_ID0);
        const float maxValue = scalar.GetValue(0);
        Adds(v, v, -maxValue, n);
        Exp(v, v, n);
        ReduceSum(scalar, v, work, n);
        SetFlag<HardEvent::V_S>(EVENT_ID0);
        WaitFlag<HardEvent::V_S>(EVENT_ID0);
        const float sum = scalar.GetValue(0);
        Muls(v, v, 1.0f / sum, n);
        LocalTensor<DTYPE_Y> yLocal = outQueue.AllocTensor<DTYPE_Y>();
        if constexpr (sizeof(DTYPE_Y) == sizeof(float)) {
            DataCopy(yLocal.template ReinterpretCast<float>(), v, tiling.alignedCols);
        } else {
            Cast(yLocal, v, RoundMode::CAST_RINT, n);
        }
        outQueue.EnQue(yLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQueue;
    TQue<QuePosition::VECOUT, 2> outQueue;
    TBuf<QuePosition::VECCALC> floatBuf, workBuf, scalarBuf;
    GlobalTensor<DTYPE_X> xGm;
    GlobalTensor<DTYPE_Y> yGm;
    SoftmaxCustomTilingData tiling;
    uint32_t rows = 0;
};

extern "C" __global__ __aicore__ void softmax_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelSoftmax op;
    op.Init(x, y, tilingData);
    op.Process();
}
