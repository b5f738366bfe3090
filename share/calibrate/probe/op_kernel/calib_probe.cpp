// CalibProbe kernel: every block runs the loop its mode names over its own slice, so that a
// case's latency depends on few timing parameters, and a sweep of one attribute separates them.
// Only the copy mode writes y; the others leave it unwritten (the golden says so).
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t MODE_COPY = 0;       // x -> UB -> y, tile by tile through a queue
constexpr uint32_t MODE_READ = 1;       // x -> UB only
constexpr uint32_t MODE_VECTOR = 2;     // `iterations` vector Max of `repeats` repeats on UB
constexpr uint32_t MODE_SCALAR = 3;     // `iterations` trips of a scalar loop
constexpr uint32_t MODE_UB_SCALAR = 4;  // `iterations` scalar reads of UB
constexpr uint32_t MODE_GM_SCALAR = 5;  // `iterations` scalar reads of GM
constexpr uint32_t MODE_FLAG = 6;       // `iterations` SetFlag/WaitFlag pairs, V to S
constexpr uint32_t MODE_BARRIER = 7;    // `iterations` vector-pipe barriers
constexpr uint32_t MODE_SYNC_ALL = 8;   // `iterations` SyncAll across the blocks
constexpr int32_t MAX_BUFFERS = 4;
constexpr uint32_t FLOATS_PER_REPEAT = 64;

class KernelCalibProbe {
public:
    __aicore__ inline KernelCalibProbe() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const CalibProbeTilingData& t)
    {
        tiling = t;
        const uint32_t start = GetBlockIdx() * t.perBlock;
        xGm.SetGlobalBuffer((__gm__ float*)x + start, t.perBlock);
        yGm.SetGlobalBuffer((__gm__ float*)y + start, t.perBlock);
        pipe.InitBuffer(queue, t.buffers, t.tileBytes);
    }
    __aicore__ inline void Process()
    {
        switch (tiling.mode) {
            case MODE_COPY: Stream(true); break;
            case MODE_READ: Stream(false); break;
            case MODE_VECTOR: Vector(); break;
            case MODE_SCALAR: Scalar(); break;
            case MODE_UB_SCALAR: UbScalar(); break;
            case MODE_GM_SCALAR: GmScalar(); break;
            case MODE_FLAG: Flags(); break;
            case MODE_BARRIER: Barriers(); break;
            case MODE_SYNC_ALL: SyncAlls(); break;
            default: break;
        }
    }

private:
    __aicore__ inline void Stream(bool writeBack)
    {
        const uint32_t tileFloats = tiling.tileBytes / sizeof(float);
        const uint32_t tiles = tiling.perBlock / tileFloats;
        const uint16_t burstUnits = static_cast<uint16_t>(tiling.tileBytes / 32 / tiling.bursts);
        const DataCopyParams params{static_cast<uint16_t>(tiling.bursts), burstUnits, 0, 0};
        for (uint32_t t = 0; t < tiles; ++t) {
            LocalTensor<float> tile = queue.AllocTensor<float>();
            DataCopy(tile, xGm[t * tileFloats], params);
            queue.EnQue(tile);
            tile = queue.DeQue<float>();
            if (writeBack) {
                DataCopy(yGm[t * tileFloats], tile, params);
            }
            queue.FreeTensor(tile);
        }
    }
    __aicore__ inline void Vector()
    {
        const uint32_t count = tiling.repeats * FLOATS_PER_REPEAT;
        LocalTensor<float> buf = queue.AllocTensor<float>();
        Duplicate(buf, 1.0f, count);
        for (uint32_t i = 0; i < tiling.iterations; ++i) {
            Max(buf, buf, buf, count);
        }
        queue.FreeTensor(buf);
    }
    // The result decides a store that (almost) never happens, so the loop cannot be removed.
    __aicore__ inline void KeepAlive(uint32_t value)
    {
        if (value == 0x9E3779B9u) {
            yGm.SetValue(0, 1.0f);
        }
    }
    __aicore__ inline void Scalar()
    {
        uint32_t acc = GetBlockIdx() + 1;
        for (uint32_t i = 0; i < tiling.iterations; ++i) {
            acc = acc * 1664525u + 1013904223u;
        }
        KeepAlive(acc);
    }
    __aicore__ inline void UbScalar()
    {
        const uint32_t count = tiling.repeats * FLOATS_PER_REPEAT;
        LocalTensor<float> buf = queue.AllocTensor<float>();
        Duplicate(buf, 1.0f, count);
        queue.EnQue(buf);
        buf = queue.DeQue<float>();
        float acc = 0.0f;
        for (uint32_t i = 0; i < tiling.iterations; ++i) {
            acc += buf.GetValue(i % count);
        }
        queue.FreeTensor(buf);
        KeepAlive(static_cast<uint32_t>(acc));
    }
    __aicore__ inline void GmScalar()
    {
        float acc = 0.0f;
        for (uint32_t i = 0; i < tiling.iterations; ++i) {
            acc += xGm.GetValue(i % tiling.perBlock);
        }
        KeepAlive(static_cast<uint32_t>(acc));
    }
    __aicore__ inline void Flags()
    {
        for (uint32_t i = 0; i < tiling.iterations; ++i) {
            SetFlag<HardEvent::V_S>(EVENT_ID0);
            WaitFlag<HardEvent::V_S>(EVENT_ID0);
        }
    }
    __aicore__ inline void Barriers()
    {
        for (uint32_t i = 0; i < tiling.iterations; ++i) {
            PipeBarrier<PIPE_V>();
        }
    }
    __aicore__ inline void SyncAlls()
    {
        for (uint32_t i = 0; i < tiling.iterations; ++i) {
            SyncAll();
        }
    }

    TPipe pipe;
    TQueBind<QuePosition::VECIN, QuePosition::VECOUT, MAX_BUFFERS> queue;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    CalibProbeTilingData tiling;
};

extern "C" __global__ __aicore__ void calib_probe(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelCalibProbe op;
    op.Init(x, y, tilingData);
    op.Process();
}
