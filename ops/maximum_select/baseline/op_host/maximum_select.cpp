// MaximumSelect: z = x >= y ? x : y, computed as Compare (bit mask) + Select.
// Compare works on whole 256-byte repeats, so shares and tiles are multiples of a repeat.
#include "maximum_select_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "graph/utils/type_utils.h"

namespace optiling {
constexpr uint32_t REPEAT_BYTES = 256;
constexpr uint32_t TILE_REPEATS = 24;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    MaximumSelectTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t typeSize = 0;
    ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeSize);
    const uint32_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    if (typeSize == 0 || total == 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t repeatElems = REPEAT_BYTES / typeSize;
    const uint32_t repeats = (total + repeatElems - 1) / repeatElems;
    const uint32_t coreNum = platform.GetCoreNumAiv();
    const uint32_t perCore = (repeats + coreNum - 1) / coreNum;
    tiling.set_totalLength(total);
    tiling.set_blockLength(perCore * repeatElems);
    tiling.set_tileLength(TILE_REPEATS * repeatElems);
    context->SetBlockDim((repeats + perCore - 1) / perCore);
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
class MaximumSelect : public OpDef {
public:
    explicit MaximumSelect(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MaximumSelect);
}  // namespace ops
