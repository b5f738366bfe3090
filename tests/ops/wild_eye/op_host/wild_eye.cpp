// WildEye: y holds batch_shape identity matrices of num_rows x num_columns. y is the operator's
// input and its output at once, and arrives zero-filled; the kernel writes only the diagonals.
// A test operator: it reproduces constructs of published cann-ops operators (Eye, the BLAS-1
// searches) that the twin must accept as they are: a reference tensor, integer attributes read
// with GetAttrPointer<uint32_t>, a list attribute read both with GetListInt and with GetInt (which
// gives no null pointer in CANN), and registration through IMPL_OP_OPTILING / IMPL_OP_INFERSHAPE.
#include "wild_eye_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const auto* attrs = context->GetAttrs();
    const uint32_t rows = *attrs->GetAttrPointer<uint32_t>(0);
    const uint32_t columns = *attrs->GetAttrPointer<uint32_t>(1);
    if (attrs->GetInt(2) == nullptr) {
        return ge::GRAPH_FAILED;  // CANN hands out a pointer for any attribute index in range
    }
    const auto* batchShape = attrs->GetListInt(2);
    uint32_t batches = 1;
    for (size_t i = 0; batchShape != nullptr && i < batchShape->GetSize(); ++i) {
        batches *= static_cast<uint32_t>(batchShape->GetData()[i]);
    }
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t cores = batches < platform.GetCoreNumAiv() ? batches : platform.GetCoreNumAiv();
    const uint32_t perCore = (batches + cores - 1) / cores;
    WildEyeTilingData tiling;
    tiling.set_numRows(rows);
    tiling.set_numColumns(columns == 0 ? rows : columns);
    tiling.set_batches(batches);
    tiling.set_batchesPerCore(perCore);
    context->SetBlockDim((batches + perCore - 1) / perCore);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return ge::GRAPH_SUCCESS;
}

IMPL_OP_OPTILING(WildEye).Tiling(TilingFunc);
IMPL_OP_INFERSHAPE(WildEye).InferShape(InferShape);
}  // namespace optiling

namespace ops {
class WildEye : public OpDef {
public:
    explicit WildEye(const char* name) : OpDef(name)
    {
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("num_rows").Int();
        this->Attr("num_columns").AttrType(OPTIONAL).Int(0);
        this->Attr("batch_shape").AttrType(OPTIONAL).ListInt({});
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(WildEye);
}  // namespace ops
