// ScaleByAbsmax: y = x / max(|x|) over the whole tensor (float32).
// Tiling key 1: small inputs run on one core in two passes. Tiling key 2: every core
// publishes its partial max to the workspace (one 32-byte slot per core), SyncAll, then
// every core reduces the partial maxima and scales its share.
#include "scale_by_absmax_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_ELEMS = 8192;
constexpr uint32_t SINGLE_CORE_LIMIT = 4096;
constexpr uint32_t SLOT_BYTES = 32;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ScaleByAbsmaxTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    if (total == 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t blockElems = 8;  // float
    const uint32_t blocks = (total + blockElems - 1) / blockElems;
    const uint32_t coreNum = total <= SINGLE_CORE_LIMIT ? 1 : platform.GetCoreNumAiv();
    const uint32_t perCore = (blocks + coreNum - 1) / coreNum;
    const uint32_t cores = (blocks + perCore - 1) / perCore;
    tiling.set_totalLength(total);
    tiling.set_blockLength(perCore * blockElems);
    tiling.set_tileLength(TILE_ELEMS);
    context->SetTilingKey(cores == 1 ? 1 : 2);
    context->SetBlockDim(cores);
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = cores * SLOT_BYTES;
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
class ScaleByAbsmax : public OpDef {
public:
    explicit ScaleByAbsmax(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ScaleByAbsmax);
}  // namespace ops
