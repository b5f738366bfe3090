// ExpCustom kernel: double-buffered tiles; the last core of a ragged input stops at the
// real end of the data (DataCopyPad), the others move whole blocks.
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 1;

template <bool RAGGED>
class KernelExp {
public:
    __aicore__ inline KernelExp() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t total, const ExpCustomTilingData& t)
    {
        const uint32_t idx = GetBlockIdx();
        const uint32_t start = idx < t.formerNum ? idx * t.formerLength
                                                 : t.formerNum * t.formerLength + (idx - t.formerNum) * t.tailLength;
        uint32_t len = idx < t.formerNum ? t.formerLength : t.tailLength;
        if (start + len > total) {
            len = total > start ? total - start : 0;
        }
        length = len;
        tileLength = t.tileLength;
        xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x + start, len);
        yGm.SetGlobalBuffer((__gm__ DTYPE_Y*)y + start, len);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLength * sizeof(DTYPE_X));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLength * sizeof(DTYPE_Y));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t done = 0; done < length; done += tileLength) {
            const uint32_t n = length - done < tileLength ? length - done : tileLength;
            CopyIn(done, n);
            Compute(n);
            CopyOut(done, n);
        }
    }

private:
    __aicore__ inline uint32_t RoundUp(uint32_t n) const
    {
        constexpr uint32_t blockElems = 32 / sizeof(DTYPE_X);
        return (n + blockElems - 1) / blockElems * blockElems;
    }
    __aicore__ inline void CopyIn(uint32_t offset, uint32_t n)
    {
        LocalTensor<DTYPE_X> xLocal = inQueue.AllocTensor<DTYPE_X>();
        if constexpr (RAGGED) {
            DataCopyPad(xLocal, xGm[offset], {1, static_cast<uint32_t>(n * sizeof(DTYPE_X)), 0, 0, 0}, {false, 0, 0, 0});
        } else {
            DataCopy(xLocal, xGm[offset], n);
        }
        inQueue.EnQue(xLocal);
    }
    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<DTYPE_X> xLocal = inQueue.DeQue<DTYPE_X>();
        LocalTensor<DTYPE_Y> yLocal = outQueue.AllocTensor<DTYPE_Y>();
        Exp(yLocal, xLocal, RoundUp(n));
        outQueue.EnQue(yLocal);
        inQueue.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t offset, uint32_t n)
    {
        LocalTensor<DTYPE_Y> yLocal = outQueue.DeQue<DTYPE_Y>();
        if constexpr (RAGGED) {
            DataCopyPad(yGm[offset], yLocal, {1, static_cast<uint32_t>(n * sizeof(DTYPE_Y)), 0, 0, 0});
        } else {
            DataCopy(yGm[offset], yLocal, n);
        }
        outQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    GlobalTensor<DTYPE_X> xGm;
    GlobalTensor<DTYPE_Y> yGm;
    uint32_t length = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void exp_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    if (TILING_KEY_IS(1)) {
        KernelExp<false> op;
        op.Init(x, y, t.totalLength, t);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        KernelExp<true> op;
        op.Init(x, y, t.totalLength, t);
        op.Process();
    }
}
