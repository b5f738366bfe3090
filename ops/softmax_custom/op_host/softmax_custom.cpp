// SoftmaxCustom: y = softmax(x) along the last axis, computed in float32 for both dtypes.
#include "softmax_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_COLS = 8192;  // one row (in float) plus its work buffers must fit in UB

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    SoftmaxCustomTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
    if (shape.GetDimNum() == 0 || shape.GetShapeSize() == 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t cols = shape.GetDim(shape.GetDimNum() - 1);
    if (cols > MAX_COLS) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t rows = shape.GetShapeSize() / cols;
    const uint32_t coreNum = platform.GetCoreNumAiv();
    const uint32_t cores = rows < coreNum ? rows : coreNum;
    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_alignedCols((cols + 15) / 16 * 16);  // also a whole block of half
    tiling.set_rowsPerCore(rows / cores);
    tiling.set_formerCores(rows % cores);
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
class SoftmaxCustom : public OpDef {
public:
    explicit SoftmaxCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SoftmaxCustom);
}  // namespace ops
