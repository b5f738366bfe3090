// ArangeCustom: y[i] = start + i * step for the output's shape; no inputs.
#include "arange_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "graph/utils/type_utils.h"

namespace optiling {
constexpr uint32_t TILE_ELEMS = 4096;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ArangeCustomTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const float* start = context->GetAttrs()->GetFloat(0);
    const float* step = context->GetAttrs()->GetFloat(1);
    uint32_t typeSize = 0;
    ge::TypeUtils::GetDataTypeLength(context->GetOutputDesc(0)->GetDataType(), typeSize);
    const uint32_t total = context->GetOutputShape(0)->GetStorageShape().GetShapeSize();
    if (start == nullptr || step == nullptr || typeSize == 0 || total == 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t blockElems = 32 / typeSize;
    const uint32_t blocks = (total + blockElems - 1) / blockElems;
    const uint32_t coreNum = platform.GetCoreNumAiv();
    const uint32_t perCore = (blocks + coreNum - 1) / coreNum;
    tiling.set_totalLength(total);
    tiling.set_blockLength(perCore * blockElems);
    tiling.set_tileLength(TILE_ELEMS);
    tiling.set_start(*start);
    tiling.set_step(*step);
    context->SetBlockDim((blocks + perCore - 1) / perCore);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class ArangeCustom : public OpDef {
public:
    explicit ArangeCustom(const char* name) : OpDef(name)
    {
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_INT32}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("start").AttrType(OPTIONAL).Float(0.0);
        this->Attr("step").AttrType(OPTIONAL).Float(1.0);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ArangeCustom);
}  // namespace ops
