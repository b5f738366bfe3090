// AddCustom kernel: double-buffered copy-in / add / copy-out over this core's share.
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 1;

class KernelAdd {
public:
    __aicore__ inline KernelAdd() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const AddCustomTilingData& t)
    {
        const uint32_t idx = GetBlockIdx();
        const uint32_t blocks = t.blocksPerCore + (idx < t.bigCoreNum ? 1 : 0);
        const uint32_t firstBlock = idx * t.blocksPerCore + (idx < t.bigCoreNum ? idx : t.bigCoreNum);
        const uint32_t start = firstBlock * t.elemsPerBlock;
        uint32_t length = blocks * t.elemsPerBlock;
        if (start + length > t.totalLength) {
            length = t.totalLength - start;  // only the last core has a ragged tail
        }
        this->length = length;
        this->tileLength = t.tileLength;
        this->elemsPerBlock = t.elemsPerBlock;
        xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x + start, length);
        yGm.SetGlobalBuffer((__gm__ DTYPE_Y*)y + start, length);
        zGm.SetGlobalBuffer((__gm__ DTYPE_Z*)z + start, length);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(DTYPE_X));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(DTYPE_Y));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(DTYPE_Z));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t offset = 0; offset < length; offset += tileLength) {
            const uint32_t count = length - offset < tileLength ? length - offset : tileLength;
            CopyIn(offset, count);
            Compute(count);
            CopyOut(offset, count);
        }
    }

private:
    __aicore__ inline uint32_t Aligned(uint32_t count) const
    {
        return (count + elemsPerBlock - 1) / elemsPerBlock * elemsPerBlock;
    }
    __aicore__ inline void CopyIn(uint32_t offset, uint32_t count)
    {
        LocalTensor<DTYPE_X> xLocal = inQueueX.AllocTensor<DTYPE_X>();
        LocalTensor<DTYPE_Y> yLocal = inQueueY.AllocTensor<DTYPE_Y>();
        DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(DTYPE_X)), 0, 0, 0};
        DataCopyPadExtParams<DTYPE_X> padX{false, 0, 0, 0};
        DataCopyPadExtParams<DTYPE_Y> padY{false, 0, 0, 0};
        DataCopyPad(xLocal, xGm[offset], params, padX);
        DataCopyPad(yLocal, yGm[offset], params, padY);
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }
    __aicore__ inline void Compute(uint32_t count)
    {
        LocalTensor<DTYPE_X> xLocal = inQueueX.DeQue<DTYPE_X>();
        LocalTensor<DTYPE_Y> yLocal = inQueueY.DeQue<DTYPE_Y>();
        LocalTensor<DTYPE_Z> zLocal = outQueueZ.AllocTensor<DTYPE_Z>();
        Add(zLocal, xLocal, yLocal, Aligned(count));
        outQueueZ.EnQue<DTYPE_Z>(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }
    __aicore__ inline void CopyOut(uint32_t offset, uint32_t count)
    {
        LocalTensor<DTYPE_Z> zLocal = outQueueZ.DeQue<DTYPE_Z>();
        DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(DTYPE_Z)), 0, 0, 0};
        DataCopyPad(zGm[offset], zLocal, params);
        outQueueZ.FreeTensor(zLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
    GlobalTensor<DTYPE_X> xGm;
    GlobalTensor<DTYPE_Y> yGm;
    GlobalTensor<DTYPE_Z> zGm;
    uint32_t length = 0;
    uint32_t tileLength = 0;
    uint32_t elemsPerBlock = 0;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelAdd op;
    op.Init(x, y, z, tilingData);
    op.Process();
}
