// CalibProbe, the microbenchmark of `ascendopt calibrate` (docs/calibrate.md): its attributes
// say what to measure and how much of it, and the tiling passes them to the kernel unchanged,
// refusing a combination the kernel cannot run (a tile that does not divide a block's share,
// more bursts than 32-byte units, more buffers than the queue holds).
#include "calib_probe_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr int64_t MODE_COUNT = 9;
constexpr int64_t MAX_BUFFERS = 4;
constexpr int64_t FLOAT_BYTES = 4;
constexpr int64_t VECTOR_REPEAT_BYTES = 256;
constexpr int64_t UB_LIMIT = 160 * 1024;  // kept under the UB of every SoC we model, queue and all

static bool ReadAttr(gert::TilingContext* context, size_t index, int64_t low, int64_t high, int64_t& value)
{
    const int64_t* p = context->GetAttrs()->GetAttrPointer<int64_t>(index);
    if (p == nullptr || *p < low || *p > high) {
        return false;
    }
    value = *p;
    return true;
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    int64_t mode = 0, blocks = 0, iterations = 0, tileBytes = 0, bursts = 0, buffers = 0, repeats = 0;
    if (!ReadAttr(context, 0, 0, MODE_COUNT - 1, mode) || !ReadAttr(context, 1, 1, 4096, blocks) ||
        !ReadAttr(context, 2, 0, 1 << 24, iterations) || !ReadAttr(context, 3, 32, UB_LIMIT, tileBytes) ||
        !ReadAttr(context, 4, 1, 4095, bursts) || !ReadAttr(context, 5, 1, MAX_BUFFERS, buffers) ||
        !ReadAttr(context, 6, 1, 255, repeats)) {
        return ge::GRAPH_FAILED;
    }
    const int64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    const int64_t unitsPerBurst = tileBytes / 32 / bursts;
    if (total % blocks != 0 || tileBytes % 32 != 0 || unitsPerBurst == 0 || unitsPerBurst * 32 * bursts != tileBytes ||
        tileBytes * buffers > UB_LIMIT || ((mode == 2 || mode == 4) && repeats * VECTOR_REPEAT_BYTES > tileBytes)) {
        return ge::GRAPH_FAILED;
    }
    const int64_t perBlock = total / blocks;
    if (perBlock * FLOAT_BYTES % tileBytes != 0 && (mode == 0 || mode == 1)) {
        return ge::GRAPH_FAILED;
    }
    CalibProbeTilingData tiling;
    tiling.set_mode(static_cast<uint32_t>(mode));
    tiling.set_perBlock(static_cast<uint32_t>(perBlock));
    tiling.set_iterations(static_cast<uint32_t>(iterations));
    tiling.set_tileBytes(static_cast<uint32_t>(tileBytes));
    tiling.set_bursts(static_cast<uint32_t>(bursts));
    tiling.set_buffers(static_cast<uint32_t>(buffers));
    tiling.set_repeats(static_cast<uint32_t>(repeats));
    context->SetBlockDim(static_cast<uint32_t>(blocks));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class CalibProbe : public OpDef {
public:
    explicit CalibProbe(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("mode").AttrType(REQUIRED).Int();
        this->Attr("blocks").AttrType(OPTIONAL).Int(1);
        this->Attr("iterations").AttrType(OPTIONAL).Int(0);
        this->Attr("tile_bytes").AttrType(OPTIONAL).Int(32);
        this->Attr("bursts").AttrType(OPTIONAL).Int(1);
        this->Attr("buffers").AttrType(OPTIONAL).Int(1);
        this->Attr("repeats").AttrType(OPTIONAL).Int(1);
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(CalibProbe);
}  // namespace ops
