// ExpCustom: y = exp(x).
// Tiling key 1: every core's share is a whole number of 32-byte blocks, so plain DataCopy
// works end to end. Tiling key 2: the total is ragged, and the kernel moves its shares with
// DataCopyPad.
#include "exp_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "graph/utils/type_utils.h"

namespace optiling {
constexpr uint32_t TILE_BYTES = 4 * 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ExpCustomTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t typeSize = 0;
    ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeSize);
    const uint32_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    if (typeSize == 0 || total == 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t blockElems = 32 / typeSize;
    const uint32_t blocks = (total + blockElems - 1) / blockElems;
    const uint32_t cores = blocks < platform.GetCoreNumAiv() ? blocks : platform.GetCoreNumAiv();
    // Shares are whole blocks; the first `former` cores take one block more.
    const uint32_t former = blocks % cores;
    tiling.set_formerNum(former);
    tiling.set_formerLength((blocks / cores + 1) * blockElems);
    tiling.set_tailLength((blocks / cores) * blockElems);
    tiling.set_tileLength(TILE_BYTES / typeSize);
    tiling.set_totalLength(total);
    context->SetTilingKey(total % blockElems == 0 ? 1 : 2);
    context->SetBlockDim(cores);
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
class ExpCustom : public OpDef {
public:
    explicit ExpCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ExpCustom);
}  // namespace ops
