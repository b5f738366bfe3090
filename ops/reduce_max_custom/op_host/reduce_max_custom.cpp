// ReduceMaxCustom: y[r, 0] = max over the last axis of x[r, :].
// Tiling key 1 (short rows, at most one 256-byte repeat): one WholeReduceMax instruction
// reduces a whole tile of rows, one repeat per row. Tiling key 2: ReduceMax row by row.
#include "reduce_max_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "graph/utils/type_utils.h"

namespace optiling {
constexpr uint32_t TILE_BYTES = 32 * 1024;
constexpr uint32_t MAX_TILE_ROWS = 128;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ReduceMaxCustomTilingData tiling;
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
        return ge::GRAPH_FAILED;
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
    context->SetTilingKey(cols * typeSize <= 256 ? 1 : 2);
    context->SetBlockDim((rows + rowsPerCore - 1) / rowsPerCore);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class ReduceMaxCustom : public OpDef {
public:
    explicit ReduceMaxCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ReduceMaxCustom);
}  // namespace ops
