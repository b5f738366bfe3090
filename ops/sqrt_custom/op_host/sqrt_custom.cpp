// SqrtCustom: y = sqrt(x).
// Tiling: each core takes a share rounded up to whole 256-byte repeats; the kernel computes
// with the mask/repeat form of Sqrt (full repeats plus one masked repeat for the tail).
#include "sqrt_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "graph/utils/type_utils.h"

namespace optiling {
constexpr uint32_t REPEAT_BYTES = 256;
constexpr uint32_t TILE_REPEATS = 32;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    SqrtCustomTilingData tiling;
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
    const uint32_t repeatsPerCore = (repeats + coreNum - 1) / coreNum;
    const uint32_t cores = (repeats + repeatsPerCore - 1) / repeatsPerCore;
    tiling.set_totalLength(total);
    tiling.set_perCoreLength(repeatsPerCore * repeatElems);
    tiling.set_tileLength(TILE_REPEATS * repeatElems);
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
class SqrtCustom : public OpDef {
public:
    explicit SqrtCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SqrtCustom);
}  // namespace ops
