// AddCustom: z = x + y, elementwise, any shape (flattened).
// Tiling: split the input into 32-byte blocks; the first bigCoreNum cores take one extra
// block, so every core's share is block-aligned except the global ragged tail, which the
// last core copies out with DataCopyPad.
#include "add_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "graph/utils/type_utils.h"

namespace optiling {
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t QUEUE_COUNT = 3;  // x, y in; z out

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    AddCustomTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint32_t coreNum = platform.GetCoreNumAiv();

    const uint32_t totalLength = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    uint32_t typeSize = 0;
    ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeSize);
    if (typeSize == 0 || totalLength == 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t elemsPerBlock = BLOCK_BYTES / typeSize;
    const uint32_t totalBlocks = (totalLength + elemsPerBlock - 1) / elemsPerBlock;
    const uint32_t usedCores = totalBlocks < coreNum ? totalBlocks : coreNum;

    // Largest block-aligned tile such that all queues fit in UB.
    const uint32_t tileBytes = (ubSize / (QUEUE_COUNT * BUFFER_NUM)) / BLOCK_BYTES * BLOCK_BYTES;
    const uint32_t tileLength = tileBytes / typeSize;

    tiling.set_bigCoreNum(totalBlocks % usedCores);
    tiling.set_blocksPerCore(totalBlocks / usedCores);
    tiling.set_tileLength(tileLength > 2048 ? 2048 : tileLength);
    tiling.set_totalLength(totalLength);
    tiling.set_elemsPerBlock(elemsPerBlock);
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
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
class AddCustom : public OpDef {
public:
    explicit AddCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(AddCustom);
}  // namespace ops
