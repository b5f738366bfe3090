// ListScaleAdd kernel: block b handles tensors b, b + blocks, ...; each in tiles of TILE
// elements, copied with DataCopyPad so that any length works.
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t TILE = 2048;

template <typename T>
class ListScaleAddKernel {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ListScaleAddTilingData& tiling)
    {
        xs_.Init(x);
        ys_.Init(y);
        tiling_ = tiling;
        pipe_.InitBuffer(inQueue_, 2, TILE * sizeof(T));
        pipe_.InitBuffer(outQueue_, 2, TILE * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = GetBlockIdx(); i < xs_.GetSize(); i += GetBlockNum()) {
            uint64_t shape[8] = {};
            TensorDesc<T> desc;
            desc.SetShapeAddr(shape);
            xs_.GetDesc(desc, i);
            uint64_t length = 1;
            for (uint64_t d = 0; d < desc.GetDim(); ++d) {
                length *= desc.GetShape(d);
            }
            if (length != tiling_.lengths[i]) {
                return;  // the list and the tiling disagree: y stays unwritten and fails its check
            }
            GlobalTensor<T> x, y;
            x.SetGlobalBuffer(xs_.GetDataPtr<T>(i), length);
            y.SetGlobalBuffer(ys_.GetDataPtr<T>(i), length);
            for (uint64_t at = 0; at < length; at += TILE) {
                const uint32_t n = length - at < TILE ? uint32_t(length - at) : TILE;
                Tile(x[at], y[at], n);
            }
        }
    }

private:
    __aicore__ inline void Tile(const GlobalTensor<T>& x, const GlobalTensor<T>& y, uint32_t n)
    {
        LocalTensor<T> in = inQueue_.AllocTensor<T>();
        DataCopyPad(in, x, DataCopyExtParams(1, n * sizeof(T), 0, 0, 0), DataCopyPadExtParams<T>(false, 0, 0, T(0)));
        inQueue_.EnQue(in);
        in = inQueue_.DeQue<T>();
        LocalTensor<T> out = outQueue_.AllocTensor<T>();
        Muls(out, in, T(tiling_.alpha), n);
        if (tiling_.hasBias) {
            Adds(out, out, T(tiling_.bias), n);
        }
        outQueue_.EnQue(out);
        inQueue_.FreeTensor(in);
        out = outQueue_.DeQue<T>();
        DataCopyPad(y, out, DataCopyExtParams(1, n * sizeof(T), 0, 0, 0));
        outQueue_.FreeTensor(out);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQueue_;
    TQue<QuePosition::VECOUT, 2> outQueue_;
    ListTensorDesc xs_, ys_;
    ListScaleAddTilingData tiling_;
};

extern "C" __global__ __aicore__ void list_scale_add(GM_ADDR x, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    ListScaleAddKernel<DTYPE_X> op;
    op.Init(x, y, tilingData);
    op.Process();
}
