// ComplexAbs: y = |x| * scale for complex64 x (float32 y); scale is a one-element input whose
// value the tiling reads (ValueDepend, gert::Tensor::GetData), as Fill reads its dims.
// A test operator for the complex64 dtype and for value-dependent inputs of published operators.
#include "complex_abs_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_PER_CORE = 4096;  // complex elements one core holds in its UB tile

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Tensor* scale = context->GetInputTensor(1);
    if (scale == nullptr || scale->GetData<float>() == nullptr) {
        return ge::GRAPH_FAILED;  // scale is ValueDepend: its data must reach the tiling
    }
    const uint32_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv();
    uint32_t perCore = (total + cores - 1) / cores;
    perCore = (perCore + 3) / 4 * 4;  // whole 32-byte blocks of complex64
    if (perCore == 0 || perCore > MAX_PER_CORE) {
        return ge::GRAPH_FAILED;
    }
    ComplexAbsTilingData tiling;
    tiling.set_total(total);
    tiling.set_perCore(perCore);
    tiling.set_scale(*scale->GetData<float>());
    context->SetBlockDim((total + perCore - 1) / perCore);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class ComplexAbs : public OpDef {
public:
    explicit ComplexAbs(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_COMPLEX64}).Format({ge::FORMAT_ND});
        this->Input("scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).ValueDepend(REQUIRED);
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ComplexAbs);
}  // namespace ops
