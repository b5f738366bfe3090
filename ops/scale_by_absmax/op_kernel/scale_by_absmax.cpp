// ScaleByAbsmax kernel; see the host file for the two tiling keys.
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t SLOT_ELEMS = 8;  // one 32-byte workspace slot of float per core

class KernelScaleByAbsmax {
public:
    __aicore__ inline KernelScaleByAbsmax() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, const ScaleByAbsmaxTilingData& t)
    {
        const uint32_t start = GetBlockIdx() * t.blockLength;
        length = t.totalLength - start < t.blockLength ? t.totalLength - start : t.blockLength;
        tileLength = t.tileLength;
        xGm.SetGlobalBuffer((__gm__ float*)x + start, length);
        yGm.SetGlobalBuffer((__gm__ float*)y + start, length);
        slotsGm.SetGlobalBuffer((__gm__ float*)workspace, GetBlockNum() * SLOT_ELEMS);
        pipe.InitBuffer(inQueue, 2, tileLength * sizeof(float));
        pipe.InitBuffer(outQueue, 2, tileLength * sizeof(float));
        pipe.InitBuffer(absBuf, tileLength * sizeof(float));
        pipe.InitBuffer(slotBuf, 48 * SLOT_ELEMS * sizeof(float));
    }
    __aicore__ inline float LocalAbsMax()
    {
        float best = 0;
        LocalTensor<float> work = absBuf.Get<float>();
        LocalTensor<float> result = slotBuf.Get<float>();
        for (uint32_t done = 0; done < length; done += tileLength) {
            const uint32_t n = length - done < tileLength ? length - done : tileLength;
            LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
            DataCopyPad(xLocal, xGm[done], {1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0}, {false, 0, 0, 0});
            inQueue.EnQue(xLocal);
            xLocal = inQueue.DeQue<float>();
            Abs(xLocal, xLocal, n);
            ReduceMax(result, xLocal, work, n, false);
            SetFlag<HardEvent::V_S>(EVENT_ID0);  // the scalar read waits for the vector result
            WaitFlag<HardEvent::V_S>(EVENT_ID0);
            const float tileMax = result.GetValue(0);
            best = tileMax > best ? tileMax : best;
            inQueue.FreeTensor(xLocal);
        }
        return best;
    }
    __aicore__ inline float GlobalAbsMax(float local)
    {
        LocalTensor<float> slots = slotBuf.Get<float>();
        Duplicate(slots, local, SLOT_ELEMS);
        SetFlag<HardEvent::V_MTE3>(EVENT_ID0);  // the copy-out waits for the slot values
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
        DataCopy(slotsGm[GetBlockIdx() * SLOT_ELEMS], slots, SLOT_ELEMS);
        SyncAll();
        const uint32_t count = GetBlockNum() * SLOT_ELEMS;
        DataCopy(slots, slotsGm, count);
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);  // the reduction waits for every core's slot
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        LocalTensor<float> work = absBuf.Get<float>();
        ReduceMax(slots, slots, work, count, false);
        SetFlag<HardEvent::V_S>(EVENT_ID0);
        WaitFlag<HardEvent::V_S>(EVENT_ID0);
        return slots.GetValue(0);
    }
    __aicore__ inline void Scale(float absMax)
    {
        const float factor = absMax > 0 ? 1.0f / absMax : 0.0f;
        for (uint32_t done = 0; done < length; done += tileLength) {
            const uint32_t n = length - done < tileLength ? length - done : tileLength;
            LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
            DataCopyPad(xLocal, xGm[done], {1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0}, {false, 0, 0, 0});
            inQueue.EnQue(xLocal);
            xLocal = inQueue.DeQue<float>();
            LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
            Muls(yLocal, xLocal, factor, n);
            inQueue.FreeTensor(xLocal);
            outQueue.EnQue(yLocal);
            yLocal = outQueue.DeQue<float>();
            DataCopyPad(yGm[done], yLocal, {1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0});
            outQueue.FreeTensor(yLocal);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQueue;
    TQue<QuePosition::VECOUT, 2> outQueue;
    TBuf<QuePosition::VECCALC> absBuf, slotBuf;
    GlobalTensor<float> xGm, yGm, slotsGm;
    uint32_t length = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void scale_by_absmax(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelScaleByAbsmax op;
    op.Init(x, y, workspace, tilingData);
    const float local = op.LocalAbsMax();
    if (TILING_KEY_IS(1)) {
        op.Scale(local);
    } else {
        op.Scale(op.GlobalAbsMax(local));
    }
}
