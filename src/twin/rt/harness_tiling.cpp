// The host half of the harness: the OpDef registry (`--describe`) and a case's tiling
// (`--tiling`), in the host binary, which holds the candidate's host code and no kernel. See
// harness.h for why the two halves run in separate processes.
#include <algorithm>
#include <memory>
#include <optional>

#include "ascendopt_twin/host/init_value.h"
#include "ascendopt_twin/host/platform.h"
#include "core/dtype.h"
#include "harness.h"
#include "harness_frozen.h"
#include "harness_io.h"
#include "twin_rt.h"

namespace ascendopt_twin::harness {
namespace {

using nlohmann::json;

json verdict(const char* status, const std::string& api, const std::string& message) {
    return {{"status", status}, {"api", api}, {"message", message}};
}

std::string dtype_name_of(ge::DataType t) {
    const auto d = ascendopt::dtype_from_ge_code(t);
    return d ? ascendopt::dtype_name(*d) : "ge:" + std::to_string(int(t));
}

json params_json(const std::vector<ops::OpParamDef>& params) {
    json out = json::array();
    for (const auto& p : params) {
        json dtypes = json::array();
        const auto& bin = p.bin_dtypes();
        for (size_t i = 0; i < p.dtypes().size(); ++i) {
            const ge::DataType t = p.dtypes()[i];
            // A column whose kernel is built for another dtype (DataTypeForBinQuery) is not a
            // name parse_dtype knows: the evaluator then treats the column as unsupported.
            if (i < bin.size() && bin[i] != t)
                dtypes.push_back(dtype_name_of(t) + " run by the " + dtype_name_of(bin[i]) + " kernel");
            else
                dtypes.push_back(dtype_name_of(t));
        }
        out.push_back({{"name", p.name()}, {"optional", p.option() == ops::OPTIONAL}, {"dynamic", p.option() == ops::DYNAMIC},
                       {"shape_from_kernel", p.shape_from_kernel()}, {"dtypes", dtypes}});
    }
    return out;
}

ops::TilingFunc tiling_of(const ops::OpDef& op) {
    return op.aicore().tiling() ? op.aicore().tiling() : host::impl_tiling(op.type());
}

// The tiling function runs marked as host code, so that a crash in it is reported as the
// tiling's, not the harness's.
ge::graphStatus run_host_tiling(ops::TilingFunc fn, gert::TilingContext& ctx) {
    set_running_code(RunningCode::host_tiling);
    const ge::graphStatus status = fn(&ctx);
    set_running_code(RunningCode::harness);
    return status;
}

const ops::OpDef* find_op(const std::string& type) {
    for (const auto& op : registered_ops())
        if (op->type() == type || (type.empty() && registered_ops().size() == 1)) return op.get();
    return nullptr;
}

// The compile info of the operator's TilingParse registration, prepared once per case as the
// graph compiler does once per node: null inside when it declares none; nullopt when its
// TilingParse function fails.
std::optional<std::shared_ptr<void>> prepare_compile_info(const ops::OpDef& op, gert::IoDesc& io, fe::PlatFormInfos& platform) {
    const host::OpImpl* impl = host::find_impl(op.type());
    if (!impl || !impl->make_compile_info()) return std::shared_ptr<void>();
    std::shared_ptr<void> info = impl->make_compile_info()();
    if (impl->parse()) {
        gert::TilingParseContext parse_ctx(&io, &platform, info.get());
        set_running_code(RunningCode::host_tiling);
        const ge::graphStatus status = impl->parse()(&parse_ctx);
        set_running_code(RunningCode::harness);
        if (status != ge::GRAPH_SUCCESS) return std::nullopt;
    }
    return info;
}

// The dtype combination (index into every parameter's dtype list) the case's tensors match,
// or SIZE_MAX when none does.
size_t dtype_column(const ops::OpDef& op, const std::vector<Param>& ins, const std::vector<Param>& outs) {
    size_t combinations = 0;
    for (const auto* defs : {&op.inputs(), &op.outputs()})
        for (const auto& d : *defs) combinations = std::max(combinations, d.dtypes().size());
    for (size_t c = 0; c < combinations; ++c) {
        bool matches = true;
        for (const auto& [defs, params] : {std::pair{&op.inputs(), &ins}, std::pair{&op.outputs(), &outs}})
            for (size_t i = 0; i < defs->size() && i < params->size() && matches; ++i) {
                const auto& dtypes = (*defs)[i].dtypes();
                if (!(*params)[i].present() || c >= dtypes.size()) continue;
                const auto d = ascendopt::dtype_from_ge_code(dtypes[c]);
                matches = d && *d == (*params)[i].tensors[0].dtype;
            }
        if (matches) return c;
    }
    return SIZE_MAX;
}

json attr_default(const gert::AttrValue& v) {
    switch (v.kind) {
        case gert::AttrValue::Kind::i64: return v.i;
        case gert::AttrValue::Kind::f32: return v.f;
        case gert::AttrValue::Kind::boolean: return v.b;
        case gert::AttrValue::Kind::str: return v.s;
        case gert::AttrValue::Kind::list_i64: return v.li;
        case gert::AttrValue::Kind::list_f32: return v.lf;
        default: return nullptr;
    }
}

std::string hex_of(const uint8_t* data, size_t size) {
    static const char digits[] = "0123456789abcdef";
    std::string out(size * 2, '0');
    for (size_t i = 0; i < size; ++i) {
        out[2 * i] = digits[data[i] >> 4];
        out[2 * i + 1] = digits[data[i] & 15];
    }
    return out;
}

json plan_params(const std::vector<ops::OpParamDef>& defs) {
    json out = json::array();
    for (const auto& d : defs)
        out.push_back({{"name", d.name()}, {"dynamic", d.option() == ops::DYNAMIC}, {"shape_from_kernel", d.shape_from_kernel()}});
    return out;
}

// The initial contents of each output tensor that has an OpDef initial value, by label, as
// hex of one repeating pattern; outputs without one start as 0xFF bytes. Sets `error` when a
// declaration is invalid.
json output_fills(const ops::OpDef& op, const std::vector<Param>& ins, const std::vector<Param>& outs, bool need_atomic,
                  std::string& error) {
    json fills = json::object();
    const size_t column = dtype_column(op, ins, outs);
    for (size_t i = 0; i < outs.size(); ++i)
        for (const auto& t : outs[i].tensors) {
            const auto pattern = host::output_initial_pattern(op.outputs()[i].init_value(), t.label(), column, need_atomic, t.bytes(), error);
            if (!error.empty()) return nullptr;
            if (!pattern.empty()) fills[t.label()] = hex_of(pattern.data(), pattern.size());
        }
    return fills;
}

}  // namespace

json describe_registry() {
    json ops = json::array();
    for (const auto& op : registered_ops()) {
        json attrs = json::array();
        for (const auto& a : op->attrs())
            attrs.push_back({{"name", a.name()},
                             {"kind", attr_kind_name(a.value_kind())},
                             {"required", !a.has_default()},
                             {"default", a.has_default() ? attr_default(a.default_value()) : json(nullptr)}});
        // Per SoC whose AddConfig configuration declares parameters: the prototype there.
        json soc_params = json::object();
        for (const auto& soc : op->aicore().socs())
            if (const ops::OpAICoreConfig* c = op->aicore().config(soc); c && (!c->inputs().empty() || !c->outputs().empty())) {
                const ops::OpDef on_soc = op->for_soc(soc);
                soc_params[soc] = {{"inputs", params_json(on_soc.inputs())}, {"outputs", params_json(on_soc.outputs())}};
            }
        ops.push_back({{"type", op->type()},
                       {"soc_params", soc_params},
                       {"inputs", params_json(op->inputs())},
                       {"outputs", params_json(op->outputs())},
                       {"attrs", attrs},
                       {"has_tiling", tiling_of(*op) != nullptr},
                       {"socs", op->aicore().socs()}});
    }
    json classes = json::array();
    for (const auto& c : registered_tiling_classes())
        classes.push_back({{"op", c.op_type}, {"class", c.cpp_name}, {"size", c.size}});
    return {{"ops", ops}, {"tiling_classes", classes}};
}

json tile_case(const json& job) {
    if (!job.contains("soc")) return verdict("run_failed", "harness", "the job has no SoC description");
    std::string soc_error;
    const SocSpec* soc = frozen_soc(job["soc"], soc_error);
    if (!soc) return verdict("run_failed", "harness", soc_error);
    const ops::OpDef* registered = find_op(job.value("op", ""));
    if (!registered) return verdict("run_failed", "harness", "no OP_ADD registered an operator named '" + job.value("op", "") + "'");
    // The prototype on this SoC: its AddConfig configuration's parameters replace the top-level ones.
    const ops::OpDef on_soc = registered->for_soc(soc->short_name);
    const ops::OpDef* op = &on_soc;
    const ops::TilingFunc tiling_fn = tiling_of(*op);
    if (!tiling_fn)
        return verdict("tiling_failed", "OpDef", "no tiling function: neither the OpDef (AICore().SetTiling) nor IMPL_OP_OPTILING sets one");

    const auto ins = params_for(op->inputs(), job["inputs"], "input");
    const auto outs = params_for(op->outputs(), job["outputs"], "output");
    gert::IoDesc io;
    io.node_name = op->type();
    io.node_type = op->type();
    std::vector<std::vector<char>> value_depend_data;
    fill_io(io, *op, ins, outs, value_depend_data);
    if (job.value("preflight", false))
        for (size_t i = 0; i < ins.size(); ++i)
            if (reads_data(*op, i) && ins[i].present() && ins[i].tensors[0].file.empty())
                return {{"status", "ok"}, {"preflight", true},
                        {"skipped", "input '" + ins[i].name + "' is ValueDepend: its tiling needs the case's data, which a preflight does not have"}};
    fill_attrs(io, *op, job.value("attrs", json::object()));
    fe::PlatFormInfos platform(soc);
    auto compile_info = prepare_compile_info(*op, io, platform);
    if (!compile_info) return verdict("tiling_failed", "TilingParse", "the operator's TilingParse function returned GRAPH_FAILED");
    gert::TilingContext ctx(&io, &platform, compile_info->get());
    if (run_host_tiling(tiling_fn, ctx) != ge::GRAPH_SUCCESS)
        return verdict("tiling_failed", "TilingFunc", "the tiling function returned GRAPH_FAILED");
    const uint32_t max_blocks = job.value("max_block_dim", 4096u);
    if (ctx.GetBlockDim() == 0 || ctx.GetBlockDim() > max_blocks)
        return verdict("tiling_failed", "SetBlockDim",
                       "block dim " + std::to_string(ctx.GetBlockDim()) + " is outside 1.." + std::to_string(max_blocks));
    std::string init_error;
    json fills = output_fills(*op, ins, outs, ctx.need_atomic(), init_error);
    if (!init_error.empty()) return verdict("run_failed", "InitValue", init_error);
    uint64_t workspace = 0;
    for (size_t w : ctx.workspace()) workspace += w;
    const auto* raw = ctx.GetRawTilingData();
    return {{"status", "ok"},
            {"block_dim", ctx.GetBlockDim()},
            {"tiling_key", ctx.GetTilingKey()},
            {"workspace_bytes", workspace},
            {"tiling_data", hex_of(static_cast<const uint8_t*>(raw->GetData()), raw->GetDataSize())},
            {"inputs", plan_params(op->inputs())},
            {"outputs", plan_params(op->outputs())},
            {"output_fills", fills},
            // Whether the tiling could read input data (ValueDepend): such a plan holds only for
            // the inputs it saw, and the evaluator does not reuse it for another case.
            {"reads_data", !value_depend_data.empty()}};
}

}  // namespace ascendopt_twin::harness
