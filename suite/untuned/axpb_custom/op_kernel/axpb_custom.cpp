// AxpbCustom kernel: one in-place queue per tile; Muls then Adds on the same UB tensor.
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 1;

class KernelAxpb {
public:
    __aicore__ inline KernelAxpb() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const AxpbCustomTilingData& t)
    {
        const uint32_t start = GetBlockIdx() * t.blockLength;
        length = t.totalLength - start < t.blockLength ? t.totalLength - start : t.blockLength;
        tileLength = t.tileLength;
        alpha = static_cast<DTYPE_X>(t.alpha);
        beta = static_cast<DTYPE_X>(t.beta);
        xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x + start, length);
        yGm.SetGlobalBuffer((__gm__ DTYPE_Y*)y + start, length);
        pipe.InitBuffer(queue, BUFFER_NUM, tileLength * sizeof(DTYPE_X));
    }
    __aicore__ inline void Process()
    {
        constexpr uint32_t blockElems = 32 / sizeof(DTYPE_X);
        for (uint32_t done = 0; done < length; done += tileLength) {
            const uint32_t n = length - done < tileLength ? length - done : tileLength;
            const uint32_t aligned = (n + blockElems - 1) / blockElems * blockElems;
            LocalTensor<DTYPE_X> local = queue.AllocTensor<DTYPE_X>();
            DataCopyPad(local, xGm[done], {1, static_cast<uint32_t>(n * sizeof(DTYPE_X)), 0, 0, 0}, {false, 0, 0, 0});
            queue.EnQue(local);
            local = queue.DeQue<DTYPE_X>();
            Muls(local, local, alpha, aligned);
            Adds(local, local, beta, aligned);
            PipeBarrier<PIPE_ALL>();
            queue.EnQue(local);
            local = queue.DeQue<DTYPE_X>();
            DataCopyPad(yGm[done], local, {1, static_cast<uint32_t>(n * sizeof(DTYPE_Y)), 0, 0, 0});
            queue.FreeTensor(local);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> queue;
    GlobalTensor<DTYPE_X> xGm;
    GlobalTensor<DTYPE_Y> yGm;
    uint32_t length = 0;
    uint32_t tileLength = 0;
    DTYPE_X alpha;
    DTYPE_X beta;
};

extern "C" __global__ __aicore__ void axpb_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelAxpb op;
    op.Init(x, y, tilingData);
    op.Process();
}
