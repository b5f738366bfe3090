// ReplicatedCopy: y = x for float32. A test operator with a defect seen in published code: the
// host launches one block per vector core, but the kernel never reads its block index, so every
// core copies the whole tensor (the work is repeated, not split). Offline Stage I's multicore
// rule (agent/split_cores.h) is what fixes it; the tests check it does and stays correct.
#include "replicated_copy_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    constexpr uint32_t kTileLength = 8192;
    constexpr uint32_t kAlign = 8;  // float32 elements per 32-byte block
    const uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    ReplicatedCopyTilingData tiling;
    tiling.set_tileLength(kTileLength);
    tiling.set_tiles(total / kTileLength);
    tiling.set_rest((total % kTileLength + kAlign - 1) / kAlign * kAlign);
    context->SetBlockDim(platform.GetCoreNumAiv());
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static graphStatus InferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ReplicatedCopy : public OpDef {
public:
    explicit ReplicatedCopy(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ReplicatedCopy);
}  // namespace ops
