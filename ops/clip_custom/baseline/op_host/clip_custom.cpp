// ClipCustom: y = min(max(x, lower), upper), for float16, float32 and int32.
#include "clip_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "graph/utils/type_utils.h"

namespace optiling {
constexpr uint32_t TILE_BYTES = 16 * 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ClipCustomTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const float* lower = context->GetAttrs()->GetFloat(0);
    const float* upper = context->GetAttrs()->GetFloat(1);
    uint32_t typeSize = 0;
    ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeSize);
    const uint32_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    if (lower == nullptr || upper == nullptr || *lower > *upper || typeSize == 0 || total == 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t blockElems = 32 / typeSize;
    const uint32_t blocks = (total + blockElems - 1) / blockElems;
    const uint32_t coreNum = platform.GetCoreNumAiv();
    const uint32_t perCore = (blocks + coreNum - 1) / coreNum;
    tiling.set_totalLength(total);
    tiling.set_blockLength(perCore * blockElems);
    tiling.set_tileLength(TILE_BYTES / typeSize);
    tiling.set_lower(*lower);
    tiling.set_upper(*upper);
    context->SetBlockDim((blocks + perCore - 1) / perCore);
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
class ClipCustom : public OpDef {
public:
    explicit ClipCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("lower").AttrType(REQUIRED).Float();
        this->Attr("upper").AttrType(REQUIRED).Float();
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ClipCustom);
}  // namespace ops
