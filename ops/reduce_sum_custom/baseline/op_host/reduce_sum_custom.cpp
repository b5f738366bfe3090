// ReduceSumCustom: y[r, 0] = sum over the last axis of x[r, :], for x of any rank >= 1.
// Rows are split across cores; a tile holds as many whole rows as fit in the UB budget.
#include "reduce_sum_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "graph/utils/type_utils.h"

namespace optiling {
constexpr uint32_t TILE_BYTES = 32 * 1024;
constexpr uint32_t MAX_TILE_ROWS = 64;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ReduceSumCustomTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
    uint32_t typeSize = 0;
    ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeSize);
    if (shape.GetDimNum() == 0 || typeSize == 0 || shape.GetShapeSize() == 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t cols = shape.GetDim(shape.GetDimNum() - 1);
    const uint32_t rows = shape.GetShapeSize() / cols;
    const uint32_t blockElems = 32 / typeSize;
    const uint32_t alignedCols = (cols + blockElems - 1) / blockElems * blockElems;
    if (alignedCols * typeSize > TILE_BYTES) {
        return ge::GRAPH_FAILED;  // rows longer than one tile are not supported by this kernel
    }
    uint32_t rowsPerTile = TILE_BYTES / (alignedCols * typeSize);
    rowsPerTile = rowsPerTile > MAX_TILE_ROWS ? MAX_TILE_ROWS : rowsPerTile;
    const uint32_t coreNum = platform.GetCoreNumAiv();
    const uint32_t rowsPerCore = (rows + coreNum - 1) / coreNum;
    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_alignedCols(alignedCols);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_rowsPerTile(rowsPerTile);
    context->SetBlockDim((rows + rowsPerCore - 1) / rowsPerCore);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    gert::Shape* y = context->GetOutputShape(0);
    *y = *x;
    y->SetDim(x->GetDimNum() - 1, 1);
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ReduceSumCustom : public OpDef {
public:
    explicit ReduceSumCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ReduceSumCustom);
}  // namespace ops
