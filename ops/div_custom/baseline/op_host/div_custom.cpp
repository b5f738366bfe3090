// DivCustom: z = x / y, elementwise.
// Tiling: equal block-aligned shares per core, each cut into tileNum full tiles plus a
// remainder; only the global ragged end needs a byte-exact copy.
#include "div_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "graph/utils/type_utils.h"

namespace optiling {
constexpr uint32_t TILE_LENGTH_BYTES = 2048;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    DivCustomTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t typeSize = 0;
    ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeSize);
    const uint32_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    if (typeSize == 0 || total == 0 || context->GetInputShape(1)->GetStorageShape().GetShapeSize() != total) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t blockElems = 32 / typeSize;
    const uint32_t blocks = (total + blockElems - 1) / blockElems;
    const uint32_t coreNum = platform.GetCoreNumAiv();
    const uint32_t blocksPerCore = (blocks + coreNum - 1) / coreNum;
    const uint32_t tileLength = TILE_LENGTH_BYTES / typeSize;
    tiling.set_totalLength(total);
    tiling.set_blockLength(blocksPerCore * blockElems);
    tiling.set_tileLength(tileLength);
    tiling.set_tileNum(blocksPerCore * blockElems / tileLength);
    context->SetBlockDim((blocks + blocksPerCore - 1) / blocksPerCore);
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
class DivCustom : public OpDef {
public:
    explicit DivCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(DivCustom);
}  // namespace ops
