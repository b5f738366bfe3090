// AxpbCustom: y = alpha * x + beta, with alpha and beta as float attributes (Muls + Adds).
#include "axpb_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "graph/utils/type_utils.h"

namespace optiling {
constexpr uint32_t TILE_BYTES = 32 * 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    AxpbCustomTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const float* alpha = context->GetAttrs()->GetAttrPointer<float>(0);
    const float* beta = context->GetAttrs()->GetAttrPointer<float>(1);
    uint32_t typeSize = 0;
    ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeSize);
    const uint32_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    if (alpha == nullptr || beta == nullptr || typeSize == 0 || total == 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t blockElems = 32 / typeSize;
    const uint32_t blocks = (total + blockElems - 1) / blockElems;
    const uint32_t coreNum = platform.GetCoreNumAiv();
    const uint32_t perCore = (blocks + coreNum - 1) / coreNum;
    tiling.set_totalLength(total);
    tiling.set_blockLength(perCore * blockElems);
    tiling.set_tileLength(TILE_BYTES / typeSize);
    tiling.set_alpha(*alpha);
    tiling.set_beta(*beta);
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
class AxpbCustom : public OpDef {
public:
    explicit AxpbCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("alpha").AttrType(OPTIONAL).Float(1.0);
        this->Attr("beta").AttrType(OPTIONAL).Float(0.0);
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(AxpbCustom);
}  // namespace ops
