// Runs one job in an operator binary: tiling, GM set-up, launch, outputs. See harness.h.
#include <dlfcn.h>

#include <algorithm>
#include <iterator>
#include <memory>
#include <optional>

#include "ascendopt_twin/host/init_value.h"
#include "ascendopt_twin/host/platform.h"
#include "core/dtype.h"
#include "harness.h"
#include "harness_frozen.h"
#include "harness_files.h"
#include "harness_io.h"
#include "kernel_type_notes.h"
#include "ascendopt_twin/runtime_gm.h"
#include "soc_json.h"
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
// tiling's, not the kernel's.
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

uint64_t tensor_list_bytes(const Param& p) {
    std::vector<std::vector<int64_t>> shapes;
    for (const auto& t : p.tensors) shapes.push_back(t.shape);
    return tensor_list_words(shapes, std::vector<uint64_t>(p.tensors.size())).size() * sizeof(uint64_t);
}

constexpr size_t k_shape_slot = 9;  // words per output in the output-shapes argument

// What the kernel receives for a parameter: null when it is absent, its tensor's address, or
// for a dynamic list the address of the tensor list describing its tensors.
uint8_t* kernel_argument(GmSpace& gm, const Param& p, const std::vector<uint8_t*>& addrs) {
    if (!p.present()) return nullptr;
    if (!p.dynamic) return addrs.front();
    std::vector<std::vector<int64_t>> shapes;
    for (const auto& t : p.tensors) shapes.push_back(t.shape);
    std::vector<uint64_t> data;
    for (uint8_t* a : addrs) data.push_back(reinterpret_cast<uint64_t>(a));
    const auto words = tensor_list_words(shapes, data);
    uint8_t* list = gm.add(p.name + " (tensor list)", words.size() * sizeof(uint64_t));
    std::memcpy(gm.host(list), words.data(), words.size() * sizeof(uint64_t));
    return list;
}

// The input an output of the same name and size updates in place, or null.
uint8_t* shared_input(const std::vector<Param>& ins, const std::vector<std::vector<uint8_t*>>& addrs, const Tensor& out) {
    for (size_t i = 0; i < ins.size(); ++i)
        for (size_t k = 0; k < ins[i].tensors.size(); ++k)
            if (ins[i].tensors[k].label() == out.label() && ins[i].tensors[k].bytes() == out.bytes()) return addrs[i][k];
    return nullptr;
}

// The compile info of the operator's TilingParse registration, prepared once per case as the
// graph compiler does once per node: null inside when it declares none; an error result when
// its TilingParse function fails.
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

json counts_json(const InstrCounts& c) {
    json pipes = json::object();
    for (size_t i = 0; i < size_t(PipeId::count); ++i) pipes[pipe_name(PipeId(i))] = {{"count", c.count[i]}, {"bytes", c.bytes[i]}};
    return {{"pipes", pipes}, {"by_kind", c.by_kind}};
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

// The job's SoC description, read-only from now on (harness_frozen.h). The cases of a job share
// one; a job file naming another SoC gets a second.
const SocSpec* frozen_soc(const json& description, std::string& error) {
    static std::string frozen_text;
    static const SocSpec* frozen = nullptr;
    const std::string text = description.dump();
    if (frozen && text == frozen_text) return frozen;
    SocSpec* soc = nullptr;
    bool ok = false;
    build_frozen([&] {
        soc = new (frozen_allocate(sizeof(SocSpec))) SocSpec();
        ok = soc_from_json(description, *soc, error);
    });
    if (!ok) return nullptr;
    frozen_text = text;
    frozen = soc;
    return frozen;
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

json run_job(const json& job) {
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

    // Outputs whose shape the kernel computes get one more GM argument after the outputs: per
    // output, its dimension count and up to 8 dimensions (k_shape_slot words).
    const bool shapes_out = std::any_of(op->outputs().begin(), op->outputs().end(), [](const ops::OpParamDef& p) { return p.shape_from_kernel(); });
    const size_t kernel_args = job.value("kernel_args", size_t(0));
    const size_t expected_args = ins.size() + outs.size() + (shapes_out ? 1 : 0) + 2;
    if (kernel_args != 0 && kernel_args != expected_args)
        return verdict("run_failed", "launch",
                       "the kernel takes " + std::to_string(kernel_args) + " GM arguments, but the OpDef has " +
                           std::to_string(ins.size()) + " inputs + " + std::to_string(outs.size()) + " outputs" +
                           (shapes_out ? " + the output shapes" : "") + " + workspace + tiling = " + std::to_string(expected_args));
    void* entry = dlsym(RTLD_DEFAULT, job.value("kernel", "").c_str());
    if (!entry)
        return verdict("run_failed", "launch",
                       "kernel function '" + job.value("kernel", "") + "' not found; declare it extern \"C\" __global__ __aicore__");

    uint64_t workspace = 0;
    for (size_t w : ctx.workspace()) workspace += w;
    const GmLayout layout = job.value("strict_gm", false) ? GmLayout::strict : GmLayout::pool;
    const size_t tiling_size = ctx.GetRawTilingData()->GetDataSize();
    uint64_t total = GmSpace::footprint(workspace, layout) + GmSpace::footprint(tiling_size, layout) +
                     (shapes_out ? GmSpace::footprint(outs.size() * k_shape_slot * sizeof(uint64_t), layout) : 0);
    for (const auto* list : {&ins, &outs})
        for (const auto& p : *list) {
            for (const auto& t : p.tensors) total += GmSpace::footprint(t.bytes(), layout);
            if (p.dynamic) total += GmSpace::footprint(tensor_list_bytes(p), layout);
        }
    GmSpace gm(total, layout);
    set_crash_report_gm(&gm);
    const bool preflight = job.value("preflight", false);  // see LaunchOptions::preflight
    std::vector<uint8_t*> args;
    std::vector<std::vector<uint8_t*>> in_addrs;  // per input parameter, per tensor
    for (const auto& p : ins) {
        auto& addrs = in_addrs.emplace_back();
        for (const auto& t : p.tensors) {
            addrs.push_back(gm.add(t.label(), t.bytes()));
            if (!preflight) read_input_into(t, reinterpret_cast<char*>(gm.host(addrs.back())));  // straight into GM: inputs reach hundreds of megabytes
        }
        args.push_back(kernel_argument(gm, p, addrs));
    }
    std::vector<std::vector<uint8_t*>> out_addrs;
    const size_t column = dtype_column(*op, ins, outs);
    for (size_t i = 0; i < outs.size(); ++i) {
        const Param& p = outs[i];
        auto& addrs = out_addrs.emplace_back();
        for (const auto& t : p.tensors) {
            // An output named like an input is that input, updated in place (a "ref" tensor, as
            // Eye's y): it starts with the input's data, as on the device where both are one buffer.
            uint8_t* shared = shared_input(ins, in_addrs, t);
            addrs.push_back(shared ? shared : gm.add(t.label(), t.bytes()));
            if (preflight || shared) continue;
            // Unwritten outputs read as NaN / -1, unless the OpDef gives them an initial value.
            std::string init_error;
            const auto pattern = host::output_initial_pattern(op->outputs()[i].init_value(), t.label(), column, ctx.need_atomic(), t.bytes(), init_error);
            if (!init_error.empty()) return verdict("run_failed", "InitValue", init_error);
            auto* dest = reinterpret_cast<uint8_t*>(gm.host(addrs.back()));
            if (pattern.empty()) std::memset(dest, 0xFF, t.bytes());
            else
                for (uint64_t b = 0; b < t.bytes(); b += pattern.size()) std::memcpy(dest + b, pattern.data(), pattern.size());
        }
        args.push_back(kernel_argument(gm, p, addrs));
    }
    uint8_t* shapes = nullptr;
    if (shapes_out) {
        shapes = gm.add("output shapes", outs.size() * k_shape_slot * sizeof(uint64_t));
        std::memset(gm.host(shapes), 0xFF, outs.size() * k_shape_slot * sizeof(uint64_t));  // not written: no shape
        args.push_back(shapes);
    }
    args.push_back(gm.add("workspace", workspace));
    set_launch_sys_workspace(args.back());  // GetSysWorkSpacePtr: the workspace's start (ascendopt_twin/sys_workspace.h)
    uint8_t* tiling = gm.add("tiling", tiling_size);
    std::memcpy(gm.host(tiling), ctx.GetRawTilingData()->GetData(), tiling_size);
    args.push_back(tiling);

    LaunchOptions options;
    options.preflight = preflight;
    options.strict_ub = job.value("strict_ub", false);
    // The cores to launch: what the compiled kernel declares for this tiling key
    // (kernel_type_notes.h), else what the evaluator infers from the units its code calls
    // (the job's kernel_type, eval/kernel_type.h).
    std::string kernel_type = compiled_kernel_type(ctx.GetTilingKey());
    if (kernel_type.empty()) kernel_type = job.value("kernel_type", std::string("aiv"));
    if (!kernel_type_from_name(kernel_type.empty() ? "aiv" : kernel_type, options.kernel_type))
        return verdict("run_failed", "harness", "unknown kernel_type '" + kernel_type + "' (aiv, aic, mix_aic_1_2, mix_aic_1_1, mix_aic_1_0, mix_aiv_1_0)");
    options.timing = job.value("timing", true) && !preflight;
    const std::string trace_path = job.value("trace", "");
    options.trace = options.timing && !trace_path.empty();
    const LaunchResult launched = launch(*soc, entry, args, ctx.GetBlockDim(), ctx.GetTilingKey(), gm, options);
    if (options.trace && !overwrite_preopened(trace_path, chrome_trace(launched, *soc)))
        return verdict("run_failed", "harness", "cannot write the trace to " + trace_path);
    // Inputs the kernel updated in place without an OpDef output for them: their final contents.
    for (const auto& t : job["outputs"]) {
        if (preflight || !t.value("inplace", false)) continue;
        const std::string label = t.value("name", "") + (t.contains("index") ? "[" + std::to_string(t.value("index", 0)) + "]" : "");
        bool written = false;
        for (size_t i = 0; i < ins.size() && !written; ++i)
            for (size_t k = 0; k < ins[i].tensors.size() && !written; ++k)
                if (ins[i].tensors[k].label() == label) {
                    if (!overwrite_fd(preopened_fd(t.value("file", "")), reinterpret_cast<const char*>(gm.host(in_addrs[i][k])),
                                      ins[i].tensors[k].bytes()))
                        return verdict("run_failed", "harness", "cannot write the updated input '" + label + "'");
                    written = true;
                }
        if (!written) return verdict("run_failed", "harness", "the case reads back input '" + label + "', which it does not give");
    }
    for (size_t i = 0; i < outs.size() && !preflight; ++i)
        for (size_t k = 0; k < outs[i].tensors.size(); ++k) {
            const Tensor& t = outs[i].tensors[k];
            if (!overwrite_fd(preopened_fd(t.file), reinterpret_cast<const char*>(gm.host(out_addrs[i][k])), t.bytes()))
                return verdict("run_failed", "harness", "cannot write output '" + t.label() + "' to " + t.file);
        }
    json reported = json::object();
    if (shapes && !preflight)
        for (size_t i = 0; i < outs.size(); ++i) {
            if (!op->outputs()[i].shape_from_kernel() || !outs[i].present()) continue;
            const auto* slot = reinterpret_cast<const uint64_t*>(gm.host(shapes)) + i * k_shape_slot;
            const Tensor& t = outs[i].tensors[0];
            std::vector<int64_t> dims;
            uint64_t elements = 1;
            if (slot[0] < k_shape_slot)
                for (uint64_t d = 0; d < slot[0]; ++d) {
                    dims.push_back(int64_t(slot[1 + d]));
                    elements *= slot[1 + d];
                }
            if (slot[0] >= k_shape_slot || elements * ascendopt::dtype_size(t.dtype) > t.bytes())
                return verdict("wrong_result", "output shapes",
                               "the kernel reported no valid shape for '" + t.label() + "' (dimension count " + std::to_string(slot[0]) +
                                   "), or one larger than its " + std::to_string(t.bytes()) + "-byte buffer");
            reported[t.label()] = dims;
        }
    json result = {{"status", "ok"},
                   {"block_dim", ctx.GetBlockDim()},
                   {"tiling_key", ctx.GetTilingKey()},
                   {"tiling_bytes", tiling_size},
                   {"workspace_bytes", workspace},
                   {"ub_bytes", launched.ub_bytes},
                   {"ub_capacity", soc->ub_bytes},
                   {"instructions", counts_json(launched.counts)}};
    if (preflight) result["preflight"] = true;
    if (!reported.empty()) result["output_shapes"] = reported;
    for (const auto& o : launched.ub_overruns)
        result["ub_overruns"].push_back({{"api", o.api}, {"which", o.which}, {"buffer", o.buffer}, {"bytes_past", o.bytes_past}});
    for (const auto& n : gm.padding_notes())
        result["gm_padding"].push_back({{"tensor", n.tensor}, {"api", n.api}, {"write", n.write}, {"bytes_past_end", n.bytes_past_end}});
    if (options.timing) result["timing"] = timing_json(launched, *soc);
    return result;
}

}  // namespace ascendopt_twin::harness
