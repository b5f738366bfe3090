// ListScaleAdd: y[i] = x[i] * alpha + bias for every tensor i of the list x, where bias is an
// optional one-element input whose value the tiling reads. A test operator for what published
// operators of Level 2 use: a dynamic (list) input and output (the foreach family), an optional
// input that may be left out (gert instance vs IR indices), IMPL_OP_OPTILING with TilingParse
// and its compile info, and InputsDataDependency.
#include "list_scale_add_tiling.h"
#include "register/op_def_registry.h"
#include "register/op_impl_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
struct ListScaleAddCompileInfo {
    uint32_t cores = 0;
};

static ge::graphStatus TilingPrepare(gert::TilingParseContext* context)
{
    auto* info = context->GetCompiledInfo<ListScaleAddCompileInfo>();
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    info->cores = platform.GetCoreNumAiv();
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const auto* info = static_cast<const ListScaleAddCompileInfo*>(context->GetCompileInfo());
    if (info == nullptr || info->cores == 0) {
        return ge::GRAPH_FAILED;  // TilingParse must have run
    }
    const uint32_t count = context->GetComputeNodeInfo()->GetInputInstanceInfo(0)->GetInstantiationNum();
    if (count == 0 || count > MAX_TENSORS) {
        return ge::GRAPH_FAILED;
    }
    ListScaleAddTilingData tiling;
    tiling.set_count(count);
    uint64_t lengths[MAX_TENSORS] = {};
    for (uint32_t i = 0; i < count; ++i) {
        lengths[i] = context->GetDynamicInputShape(0, i)->GetStorageShape().GetShapeSize();
    }
    tiling.set_lengths(lengths);
    const gert::Tensor* bias = context->GetOptionalInputTensor(1);
    tiling.set_hasBias(bias != nullptr ? 1 : 0);
    tiling.set_bias(bias != nullptr && bias->GetData<float>() != nullptr ? *bias->GetData<float>() : 0.0f);
    tiling.set_alpha(*context->GetAttrs()->GetFloat(0));
    context->SetBlockDim(count < info->cores ? count : info->cores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}

IMPL_OP_OPTILING(ListScaleAdd).Tiling(TilingFunc).TilingParse<ListScaleAddCompileInfo>(TilingPrepare);
}  // namespace optiling

namespace ops {
IMPL_OP(ListScaleAdd).InputsDataDependency({1});

class ListScaleAdd : public OpDef {
public:
    explicit ListScaleAdd(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(DYNAMIC).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias").ParamType(OPTIONAL).DataType({ge::DT_FLOAT, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(DYNAMIC).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("alpha").AttrType(OPTIONAL).Float(1.0f);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ListScaleAdd);
}  // namespace ops
