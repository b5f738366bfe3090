// CastCustom: float16 -> float32 (exact) and float32 -> float16 (round to nearest even).
#include "cast_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t ALIGN_ELEMS = 32;  // one 32-byte block of the narrower and wider type alike
constexpr uint32_t TILE_ELEMS = 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    CastCustomTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    if (total == 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t units = (total + ALIGN_ELEMS - 1) / ALIGN_ELEMS;
    const uint32_t coreNum = platform.GetCoreNumAiv();
    const uint32_t perCore = (units + coreNum - 1) / coreNum;
    tiling.set_totalLength(total);
    tiling.set_blockLength(perCore * ALIGN_ELEMS);
    tiling.set_tileLength(TILE_ELEMS);
    context->SetBlockDim((units + perCore - 1) / perCore);
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
class CastCustom : public OpDef {
public:
    explicit CastCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(CastCustom);
}  // namespace ops
