// ops::OpDef: the operator's declaration (inputs, outputs, attributes, dtypes, tiling and
// shape-inference functions), registered with OP_ADD. The twin keeps each definition in a
// process-wide registry that the harness reads to learn the kernel's argument order.
#pragma once

#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "ascendopt_twin/host/ge_graph.h"
#include "ascendopt_twin/host/gert.h"
#include "ascendopt_twin/host/init_value.h"
#include "register/tilingdata_base.h"

namespace optiling {
// The check-support function an OpDef registers with AICore().SetCheckSupport.
using OP_CHECK_FUNC = ge::graphStatus (*)(const ge::Operator& op, ge::AscendString& result);
}  // namespace optiling

namespace ops {

enum Option { IGNORE = 0, OPTIONAL = 1, REQUIRED = 2, DYNAMIC = 3, VIRTUAL = 4 };

using TilingFunc = ge::graphStatus (*)(gert::TilingContext*);
using InferShapeFunc = ge::graphStatus (*)(gert::InferShapeContext*);
using InferDataTypeFunc = ge::graphStatus (*)(gert::InferDataTypeContext*);

class OpParamDef {
public:
    explicit OpParamDef(std::string name) : m_name(std::move(name)) {}
    OpParamDef& ParamType(Option o) { m_option = o; return *this; }
    OpParamDef& DataType(std::vector<ge::DataType> t) { m_dtypes = std::move(t); return *this; }
    OpParamDef& DataTypeList(std::vector<ge::DataType> t) { m_dtypes = std::move(t); return *this; }
    // The dtype the kernel binary of each column is compiled for, where it differs from the
    // runtime dtype (an int32 tensor that packs int4 weights runs the int4 kernel). The twin
    // compiles for the runtime dtype, so such columns are reported as unsupported (--describe).
    OpParamDef& DataTypeForBinQuery(std::vector<ge::DataType> t) { m_bin_dtypes = std::move(t); return *this; }
    OpParamDef& Format(std::vector<ge::Format> f) { m_formats = std::move(f); return *this; }
    OpParamDef& FormatList(std::vector<ge::Format> f) { m_formats = std::move(f); return *this; }
    OpParamDef& UnknownShapeFormat(std::vector<ge::Format>) { return *this; }
    OpParamDef& AutoContiguous() { return *this; }
    // The tiling reads this input's values (gert::Tensor::GetData): the harness hands them over.
    OpParamDef& ValueDepend(Option o) { m_value_depend = o != IGNORE; return *this; }
    template <class Scope>
    OpParamDef& ValueDepend(Option o, Scope) { return ValueDepend(o); }
    OpParamDef& Follow(const char*) { return *this; }
    template <class T>
    OpParamDef& Follow(const char*, T) { return *this; }
    // The kernel computes this output's shape (masked_select): it receives one more GM argument,
    // after the outputs, where it writes each output's dimension count and dimensions.
    OpParamDef& OutputShapeDependOnCompute() { m_shape_from_kernel = true; return *this; }
    // The output's GM before the kernel runs (ascendopt_twin/host/init_value.h).
    OpParamDef& InitValue(uint64_t v) {
        m_init = {InitValueDecl::Form::clear, v, {}};
        return *this;
    }
    OpParamDef& InitValue(const ScalarVar& v) {
        m_init = {InitValueDecl::Form::scalar, 0, {v}};
        return *this;
    }
    OpParamDef& InitValue(const std::vector<ScalarVar>& v) {
        m_init = {InitValueDecl::Form::per_combination, 0, v};
        return *this;
    }
    OpParamDef& IgnoreContiguous() { return *this; }
    OpParamDef& Scalar() { return *this; }
    OpParamDef& ScalarList() { return *this; }
    OpParamDef& To(const char*) { return *this; }

    const std::string& name() const { return m_name; }
    Option option() const { return m_option; }
    const std::vector<ge::DataType>& dtypes() const { return m_dtypes; }
    // Empty unless DataTypeForBinQuery gave one; else one per column of dtypes().
    const std::vector<ge::DataType>& bin_dtypes() const { return m_bin_dtypes; }
    const std::vector<ge::Format>& formats() const { return m_formats; }
    bool value_depend() const { return m_value_depend; }
    bool shape_from_kernel() const { return m_shape_from_kernel; }
    const InitValueDecl& init_value() const { return m_init; }

private:
    std::string m_name;
    Option m_option = REQUIRED;
    bool m_value_depend = false;
    bool m_shape_from_kernel = false;
    std::vector<ge::DataType> m_dtypes;
    std::vector<ge::DataType> m_bin_dtypes;
    std::vector<ge::Format> m_formats;
    InitValueDecl m_init;
};

class OpAttrDef {
public:
    explicit OpAttrDef(std::string name) : m_name(std::move(name)) {}
    OpAttrDef& AttrType(Option o) { m_option = o; return *this; }
    OpAttrDef& Int() { return kind(gert::AttrValue::Kind::i64); }
    OpAttrDef& Int(int64_t v) { m_default.i = v; return kind(gert::AttrValue::Kind::i64, true); }
    OpAttrDef& Float() { return kind(gert::AttrValue::Kind::f32); }
    OpAttrDef& Float(float v) { m_default.f = v; return kind(gert::AttrValue::Kind::f32, true); }
    OpAttrDef& Bool() { return kind(gert::AttrValue::Kind::boolean); }
    OpAttrDef& Bool(bool v) { m_default.b = v; return kind(gert::AttrValue::Kind::boolean, true); }
    OpAttrDef& String() { return kind(gert::AttrValue::Kind::str); }
    OpAttrDef& String(const char* v) { m_default.s = v; return kind(gert::AttrValue::Kind::str, true); }
    OpAttrDef& ListInt() { return kind(gert::AttrValue::Kind::list_i64); }
    OpAttrDef& ListInt(std::vector<int64_t> v) { m_default.li = std::move(v); return kind(gert::AttrValue::Kind::list_i64, true); }
    OpAttrDef& ListFloat() { return kind(gert::AttrValue::Kind::list_f32); }
    OpAttrDef& ListFloat(std::vector<float> v) { m_default.lf = std::move(v); return kind(gert::AttrValue::Kind::list_f32, true); }
    OpAttrDef& ListBool() { return kind(gert::AttrValue::Kind::list_bool); }
    OpAttrDef& ListBool(std::vector<bool> v) { m_default.lb = std::move(v); return kind(gert::AttrValue::Kind::list_bool, true); }
    OpAttrDef& ListListInt() { return kind(gert::AttrValue::Kind::list_list_i64); }
    OpAttrDef& ListListInt(std::vector<std::vector<int64_t>> v) {
        m_default.lli = std::move(v);
        return kind(gert::AttrValue::Kind::list_list_i64, true);
    }

    const std::string& name() const { return m_name; }
    Option option() const { return m_option; }
    gert::AttrValue::Kind value_kind() const { return m_default.kind; }
    bool has_default() const { return m_has_default; }
    const gert::AttrValue& default_value() const { return m_default; }

private:
    OpAttrDef& kind(gert::AttrValue::Kind k, bool with_default = false) {
        m_default.kind = k;
        m_has_default = m_has_default || with_default;
        return *this;
    }
    std::string m_name;
    Option m_option = REQUIRED;
    gert::AttrValue m_default;
    bool m_has_default = false;
};

// A SoC-specific variant of the OpDef's parameters (AICore().AddConfig(soc, config)): the
// parameters it declares are the operator's prototype on that SoC, in place of the top-level
// ones of the same name (OpDef::for_soc). The flags only matter to graph compilation.
class OpAICoreConfig {
public:
    OpAICoreConfig() = default;
    explicit OpAICoreConfig(const char*) {}
    OpParamDef& Input(const char* name) { return find_or_add(m_inputs, name); }
    OpParamDef& Output(const char* name) { return find_or_add(m_outputs, name); }
    OpAICoreConfig& DynamicCompileStaticFlag(bool) { return *this; }
    OpAICoreConfig& DynamicFormatFlag(bool) { return *this; }
    OpAICoreConfig& DynamicRankSupportFlag(bool) { return *this; }
    OpAICoreConfig& DynamicShapeSupportFlag(bool) { return *this; }
    OpAICoreConfig& NeedCheckSupportFlag(bool) { return *this; }
    OpAICoreConfig& PrecisionReduceFlag(bool) { return *this; }
    OpAICoreConfig& ExtendCfgInfo(const char*, const char*) { return *this; }

    const std::vector<OpParamDef>& inputs() const { return m_inputs; }
    const std::vector<OpParamDef>& outputs() const { return m_outputs; }

private:
    static OpParamDef& find_or_add(std::vector<OpParamDef>& v, const char* name) {
        for (auto& p : v)
            if (p.name() == name) return p;
        return v.emplace_back(name);
    }
    std::vector<OpParamDef> m_inputs, m_outputs;
};

class OpAICoreDef {
public:
    OpAICoreDef& SetTiling(TilingFunc f) { m_tiling = f; return *this; }
    // The check-support function of the documented type (graph mode asks it whether the AI Core
    // takes a node); the twin keeps it and never calls it.
    OpAICoreDef& SetCheckSupport(optiling::OP_CHECK_FUNC f) { m_check_support = f; return *this; }
    optiling::OP_CHECK_FUNC check_support() const { return m_check_support; }
    OpAICoreDef& AddConfig(const char* soc) {
        m_socs.emplace_back(soc);
        return *this;
    }
    // The configuration as it is at this call (a copy), as the registration keeps it.
    OpAICoreDef& AddConfig(const char* soc, OpAICoreConfig& config) {
        m_configs.emplace_back(soc, config);
        return AddConfig(soc);
    }

    TilingFunc tiling() const { return m_tiling; }
    const std::vector<std::string>& socs() const { return m_socs; }
    // The configuration AddConfig gave `soc` last, or null.
    const OpAICoreConfig* config(const std::string& soc) const {
        for (auto it = m_configs.rbegin(); it != m_configs.rend(); ++it)
            if (it->first == soc) return &it->second;
        return nullptr;
    }

private:
    TilingFunc m_tiling = nullptr;
    optiling::OP_CHECK_FUNC m_check_support = nullptr;
    std::vector<std::string> m_socs;
    std::vector<std::pair<std::string, OpAICoreConfig>> m_configs;
};

class OpDef {
public:
    explicit OpDef(const char* type) : m_type(type) {}
    OpDef(const OpDef&) = default;
    OpDef& operator=(const OpDef&) = default;
    virtual ~OpDef() = default;

    OpParamDef& Input(const char* name) { return find_or_add(m_inputs, name); }
    OpParamDef& Output(const char* name) { return find_or_add(m_outputs, name); }
    OpAttrDef& Attr(const char* name) {
        for (auto& a : m_attrs)
            if (a.name() == name) return a;
        return m_attrs.emplace_back(name);
    }
    OpDef& SetInferShape(InferShapeFunc f) { m_infer_shape = f; return *this; }
    template <class F>
    OpDef& SetInferShapeRange(F) { return *this; }
    OpDef& SetInferDataType(InferDataTypeFunc f) { m_infer_dtype = f; return *this; }
    OpAICoreDef& AICore() { return m_aicore; }

    const std::string& type() const { return m_type; }
    const std::vector<OpParamDef>& inputs() const { return m_inputs; }
    const std::vector<OpParamDef>& outputs() const { return m_outputs; }
    const std::vector<OpAttrDef>& attrs() const { return m_attrs; }
    InferShapeFunc infer_shape() const { return m_infer_shape; }
    InferDataTypeFunc infer_dtype() const { return m_infer_dtype; }
    const OpAICoreDef& aicore() const { return m_aicore; }

    // The operator as SoC `soc` sees it: each parameter the AddConfig configuration of `soc`
    // declares replaces the top-level parameter of that name (one the top level lacks is
    // appended); without such a configuration, the top-level definition.
    OpDef for_soc(const std::string& soc) const {
        OpDef out(*this);
        if (const OpAICoreConfig* c = m_aicore.config(soc)) {
            replace_params(out.m_inputs, c->inputs());
            replace_params(out.m_outputs, c->outputs());
        }
        return out;
    }

private:
    static void replace_params(std::vector<OpParamDef>& params, const std::vector<OpParamDef>& by) {
        for (const auto& b : by) {
            bool replaced = false;
            for (auto& p : params)
                if (p.name() == b.name()) {
                    p = b;
                    replaced = true;
                }
            if (!replaced) params.push_back(b);
        }
    }
    static OpParamDef& find_or_add(std::vector<OpParamDef>& v, const char* name) {
        for (auto& p : v)
            if (p.name() == name) return p;
        return v.emplace_back(name);
    }
    std::string m_type;
    std::vector<OpParamDef> m_inputs, m_outputs;
    std::vector<OpAttrDef> m_attrs;
    InferShapeFunc m_infer_shape = nullptr;
    InferDataTypeFunc m_infer_dtype = nullptr;
    OpAICoreDef m_aicore;
};

}  // namespace ops

namespace ascendopt_twin::host {

// Keeps every OP_ADD definition and every REGISTER_TILING_DATA_CLASS for the harness.
void register_op(std::unique_ptr<ops::OpDef> def);

// Functions registered for an op type apart from its OpDef (IMPL_OP_OPTILING(Op).Tiling(fn),
// IMPL_OP_INFERSHAPE(Op).InferShape(fn)); the harness uses them when the OpDef sets none.
class OpImpl {
public:
    using ParseFunc = std::function<ge::graphStatus(gert::TilingParseContext*)>;
    using MakeInfo = std::function<std::shared_ptr<void>()>;

    explicit OpImpl(std::string type) : m_type(std::move(type)) {}
    OpImpl& Tiling(ops::TilingFunc f) { m_tiling = f; return *this; }
    template <class CompileInfo, class Parse>
    OpImpl& TilingParse(Parse parse) {
        m_make_info = [] { return std::shared_ptr<void>(new CompileInfo(), [](void* p) { delete static_cast<CompileInfo*>(p); }); };
        set_parse(parse);
        return *this;
    }
    template <class Parse>
    OpImpl& TilingParse(Parse parse) {
        set_parse(parse);
        return *this;
    }
    OpImpl& InferShape(ops::InferShapeFunc f) { m_infer_shape = f; return *this; }
    OpImpl& InferDataType(ops::InferDataTypeFunc f) { m_infer_dtype = f; return *this; }
    // Every output takes the first input's data type.
    OpImpl& InferOutDataTypeSameWithFirstInput() {
        m_infer_dtype = [](gert::InferDataTypeContext* c) {
            for (size_t i = 0; i < c->GetComputeNodeOutputNum(); ++i)
                if (c->SetOutputDataType(i, c->GetInputDataType(0)) != ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;
            return ge::GRAPH_SUCCESS;
        };
        return *this;
    }
    template <class F>
    OpImpl& InferShapeRange(F) { return *this; }
    // The inputs (IR indices) whose contents the tiling (or shape inference) reads: the harness
    // hands their data over, as for OpDef ValueDepend inputs.
    template <class... Placements>
    OpImpl& TilingInputsDataDependency(std::initializer_list<int32_t> inputs, Placements&&...) {
        m_data_inputs.insert(m_data_inputs.end(), inputs.begin(), inputs.end());
        return *this;
    }
    template <class... Placements>
    OpImpl& InputsDataDependency(std::initializer_list<int32_t> inputs, Placements&&...) {
        return TilingInputsDataDependency(inputs);
    }
    // The simplified key picks a precompiled binary in CANN's graph engine; the twin builds the
    // kernel from source and never asks for one.
    template <class F>
    OpImpl& GenSimplifiedKey(F) { return *this; }
    template <class... A>
    OpImpl& PrivateAttr(A&&...) { return *this; }
    template <class... A>
    OpImpl& OutputShapeDependOnCompute(A&&...) { return *this; }

    const std::string& type() const { return m_type; }
    ops::TilingFunc tiling() const { return m_tiling; }
    // The compile info TilingParse declared (a fresh object), and the function that fills it.
    const MakeInfo& make_compile_info() const { return m_make_info; }
    const ParseFunc& parse() const { return m_parse; }
    bool reads_input_data(size_t ir) const {
        for (int32_t i : m_data_inputs)
            if (i >= 0 && size_t(i) == ir) return true;
        return false;
    }

private:
    template <class Parse>
    void set_parse(Parse parse) {
        if constexpr (std::is_invocable_r_v<ge::graphStatus, Parse, gert::TilingParseContext*>) m_parse = parse;
    }
    std::string m_type;
    ops::TilingFunc m_tiling = nullptr;
    ops::InferShapeFunc m_infer_shape = nullptr;
    ops::InferDataTypeFunc m_infer_dtype = nullptr;
    ParseFunc m_parse;
    MakeInfo m_make_info;
    std::vector<int32_t> m_data_inputs;
};
// The registration of `type`, created on first use; references stay valid.
OpImpl& op_impl(const char* type);
// The tiling registered with IMPL_OP_OPTILING for `type`, or null.
ops::TilingFunc impl_tiling(const std::string& type);
// The IMPL_OP_OPTILING registration of `type`, or null.
const OpImpl* find_impl(const std::string& type);

template <class Op>
struct OpRegistrar {
    explicit OpRegistrar(const char* type) { register_op(std::make_unique<Op>(type)); }
};

}  // namespace ascendopt_twin::host

#define OP_ADD(opType, ...) static ::ascendopt_twin::host::OpRegistrar<opType> ascendopt_op_registrar_##opType(#opType)

// IMPL_OP_OPTILING(Op).Tiling(fn); IMPL_OP_INFERSHAPE(Op).InferShape(fn).InferDataType(fn);
#define IMPL_OP(opType) [[maybe_unused]] static ::ascendopt_twin::host::OpImpl& ascendopt_op_impl_##opType = ::ascendopt_twin::host::op_impl(#opType)
#define IMPL_OP_OPTILING(opType) \
    [[maybe_unused]] static ::ascendopt_twin::host::OpImpl& ascendopt_op_impl_tiling_##opType = ::ascendopt_twin::host::op_impl(#opType)
#define IMPL_OP_INFERSHAPE(opType) \
    [[maybe_unused]] static ::ascendopt_twin::host::OpImpl& ascendopt_op_impl_infer_##opType = ::ascendopt_twin::host::op_impl(#opType)
