// Every block runs this in full (see op_host/replicated_copy.cpp): the tile loop starts at 0 on
// every core. The remainder tile after the loop is what a split must leave to one block.
#include "kernel_operator.h"

constexpr int32_t kBufferNum = 2;

class KernelReplicatedCopy {
public:
    __aicore__ inline KernelReplicatedCopy() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t tileLength, uint32_t tiles, uint32_t rest)
    {
        this->tileLength = tileLength;
        this->tiles = tiles;
        this->rest = rest;
        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        pipe.InitBuffer(queue, kBufferNum, tileLength * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t t = 0; t < tiles; t++) {
            Move(t * tileLength, tileLength);
        }
        if (rest > 0) {  /* a { in a comment must not confuse the split */
            Move(tiles * tileLength, rest);
        }
    }

private:
    __aicore__ inline void Move(uint32_t offset, uint32_t length)
    {
        AscendC::LocalTensor<float> in = queue.AllocTensor<float>();
        AscendC::DataCopy(in, xGm[offset], length);
        queue.EnQue(in);
        AscendC::LocalTensor<float> out = queue.DeQue<float>();
        AscendC::DataCopy(yGm[offset], out, length);
        queue.FreeTensor(out);
    }

    AscendC::TPipe pipe;
    AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, kBufferNum> queue;
    AscendC::GlobalTensor<float> xGm, yGm;
    uint32_t tileLength = 0, tiles = 0, rest = 0;
};

extern "C" __global__ __aicore__ void replicated_copy(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelReplicatedCopy op;
    op.Init(x, y, tilingData.tileLength, tilingData.tiles, tilingData.rest);
    op.Process();
}
