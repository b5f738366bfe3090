// Runs one job in an operator binary: tiling, GM set-up, launch, outputs. See harness.h.
#include <dlfcn.h>

#include <iterator>

#include "ascendopt_twin/host/platform.h"
#include "core/dtype.h"
#include "harness.h"
#include "harness_files.h"
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
        for (auto t : p.dtypes()) dtypes.push_back(dtype_name_of(t));
        out.push_back({{"name", p.name()}, {"optional", p.option() == ops::OPTIONAL}, {"dtypes", dtypes}});
    }
    return out;
}

const char* attr_kind_name(gert::AttrValue::Kind k) {
    switch (k) {
        case gert::AttrValue::Kind::i64: return "int";
        case gert::AttrValue::Kind::f32: return "float";
        case gert::AttrValue::Kind::boolean: return "bool";
        case gert::AttrValue::Kind::str: return "str";
        case gert::AttrValue::Kind::list_i64: return "list_int";
        case gert::AttrValue::Kind::list_f32: return "list_float";
        default: return "none";
    }
}

// Converts a case's attribute value to the kind the OpDef declares; false if it does not fit.
bool to_attr(const json& v, gert::AttrValue::Kind kind, gert::AttrValue& out) {
    out.kind = kind;
    switch (kind) {
        case gert::AttrValue::Kind::i64: if (!v.is_number()) return false; out.i = v.get<int64_t>(); return true;
        case gert::AttrValue::Kind::f32: if (!v.is_number()) return false; out.f = v.get<float>(); return true;
        case gert::AttrValue::Kind::boolean: if (!v.is_boolean()) return false; out.b = v.get<bool>(); return true;
        case gert::AttrValue::Kind::str: if (!v.is_string()) return false; out.s = v.get<std::string>(); return true;
        case gert::AttrValue::Kind::list_i64: if (!v.is_array()) return false; out.li = v.get<std::vector<int64_t>>(); return true;
        case gert::AttrValue::Kind::list_f32: if (!v.is_array()) return false; out.lf = v.get<std::vector<float>>(); return true;
        default: return false;
    }
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

struct Tensor {
    std::string name;
    ascendopt::DType dtype;
    std::vector<int64_t> shape;
    std::string file;
    uint64_t bytes() const {
        uint64_t n = 1;
        for (auto d : shape) n *= uint64_t(d);
        return n * ascendopt::dtype_size(dtype);
    }
};

// The job's tensors for `params`, in OpDef order; a missing optional one has an empty name.
std::vector<Tensor> tensors_for(const std::vector<ops::OpParamDef>& params, const json& list, const char* what) {
    std::vector<Tensor> out;
    for (const auto& p : params) {
        const json* found = nullptr;
        for (const auto& t : list)
            if (t.value("name", "") == p.name()) found = &t;
        if (!found) {
            if (p.option() == ops::OPTIONAL) {
                out.push_back({});
                continue;
            }
            finish_with_verdict(verdict("run_failed", "harness", std::string("the case gives no ") + what + " '" + p.name() + "'"));
        }
        const auto dt = ascendopt::parse_dtype(found->value("dtype", ""));
        if (!dt) finish_with_verdict(verdict("run_failed", "harness", "unknown dtype for '" + p.name() + "'"));
        out.push_back({p.name(), *dt, (*found)["shape"].get<std::vector<int64_t>>(), found->value("file", "")});
    }
    return out;
}

// Reads an input file, which must hold exactly the tensor, into `dest` (its pre-opened
// descriptor: harness_files.h).
void read_input_into(const Tensor& t, char* dest) {
    uint64_t size = 0;
    if (!read_preopened(t.file, dest, t.bytes(), size) || size != t.bytes())
        finish_with_verdict(verdict("run_failed", "harness",
                                    "input file " + t.file + " has " + std::to_string(size) + " bytes, expected " + std::to_string(t.bytes())));
}

std::vector<char> read_file_of(const Tensor& t) {
    std::vector<char> bytes(t.bytes());
    read_input_into(t, bytes.data());
    return bytes;
}

// `host_data` keeps the contents of ValueDepend inputs, which the tiling may read.
void fill_io(gert::IoDesc& io, const ops::OpDef& op, const std::vector<Tensor>& ins, const std::vector<Tensor>& outs,
             std::vector<std::vector<char>>& host_data) {
    host_data.reserve(ins.size());
    for (size_t i = 0; i < ins.size(); ++i) {
        const Tensor& t = ins[i];
        gert::StorageShape s{gert::Shape(t.shape)};
        gert::CompileTimeTensorDesc d;
        d.set(ge::DataType(t.name.empty() ? ge::DT_UNDEFINED : ascendopt::dtype_ge_code(t.dtype)), ge::FORMAT_ND);
        gert::Tensor tensor;
        tensor.set(s, d.GetDataType());
        if (!t.name.empty() && !t.file.empty() && op.inputs()[i].value_depend()) {
            host_data.push_back(read_file_of(t));
            tensor.set_data(host_data.back().data(), host_data.back().size());
        }
        io.input_shapes.push_back(s);
        io.input_descs.push_back(d);
        io.input_tensors.push_back(tensor);
    }
    for (const auto& t : outs) {
        gert::CompileTimeTensorDesc d;
        d.set(ge::DataType(ascendopt::dtype_ge_code(t.dtype)), ge::FORMAT_ND);
        io.output_shapes.emplace_back(gert::Shape(t.shape));
        io.output_descs.push_back(d);
    }
}

void fill_attrs(gert::IoDesc& io, const ops::OpDef& op, const json& attrs) {
    for (const auto& a : op.attrs()) {
        gert::AttrValue v = a.default_value();
        if (attrs.contains(a.name())) {
            if (!to_attr(attrs[a.name()], a.value_kind(), v))
                finish_with_verdict(verdict("run_failed", "harness",
                                            "attribute '" + a.name() + "' must be " + attr_kind_name(a.value_kind()) +
                                                ", the case gives " + attrs[a.name()].dump()));
        } else if (!a.has_default()) {
            finish_with_verdict(verdict("run_failed", "harness", "required attribute '" + a.name() + "' has no value in the case"));
        }
        io.attrs.push(std::move(v));
    }
}

void read_input(GmSpace& gm, uint8_t* device, const Tensor& t) {
    read_input_into(t, reinterpret_cast<char*>(gm.host(device)));  // straight into GM: inputs reach hundreds of megabytes
}

json counts_json(const InstrCounts& c) {
    static const char* names[] = {"S", "V", "MTE2", "MTE3"};
    json pipes = json::object();
    for (size_t i = 0; i < size_t(PipeId::count); ++i) pipes[names[i]] = {{"count", c.count[i]}, {"bytes", c.bytes[i]}};
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
        ops.push_back({{"type", op->type()},
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
    static SocSpec soc_storage;  // outlives every core of the launch
    std::string soc_error;
    if (!job.contains("soc") || !soc_from_json(job["soc"], soc_storage, soc_error))
        return verdict("run_failed", "harness", soc_error.empty() ? "the job has no SoC description" : soc_error);
    const SocSpec* soc = &soc_storage;
    const ops::OpDef* op = find_op(job.value("op", ""));
    if (!op) return verdict("run_failed", "harness", "no OP_ADD registered an operator named '" + job.value("op", "") + "'");
    const ops::TilingFunc tiling_fn = tiling_of(*op);
    if (!tiling_fn)
        return verdict("tiling_failed", "OpDef", "no tiling function: neither the OpDef (AICore().SetTiling) nor IMPL_OP_OPTILING sets one");

    const auto ins = tensors_for(op->inputs(), job["inputs"], "input");
    const auto outs = tensors_for(op->outputs(), job["outputs"], "output");
    gert::IoDesc io;
    io.node_name = op->type();
    std::vector<std::vector<char>> value_depend_data;
    fill_io(io, *op, ins, outs, value_depend_data);
    if (job.value("preflight", false))
        for (size_t i = 0; i < ins.size(); ++i)
            if (op->inputs()[i].value_depend() && !ins[i].name.empty() && ins[i].file.empty())
                return {{"status", "ok"}, {"preflight", true},
                        {"skipped", "input '" + ins[i].name + "' is ValueDepend: its tiling needs the case's data, which a preflight does not have"}};
    fill_attrs(io, *op, job.value("attrs", json::object()));
    fe::PlatFormInfos platform(soc);
    gert::TilingContext ctx(&io, &platform);
    if (run_host_tiling(tiling_fn, ctx) != ge::GRAPH_SUCCESS)
        return verdict("tiling_failed", "TilingFunc", "the tiling function returned GRAPH_FAILED");
    const uint32_t max_blocks = job.value("max_block_dim", 4096u);
    if (ctx.GetBlockDim() == 0 || ctx.GetBlockDim() > max_blocks)
        return verdict("tiling_failed", "SetBlockDim",
                       "block dim " + std::to_string(ctx.GetBlockDim()) + " is outside 1.." + std::to_string(max_blocks));

    const size_t kernel_args = job.value("kernel_args", size_t(0));
    const size_t expected_args = ins.size() + outs.size() + 2;
    if (kernel_args != 0 && kernel_args != expected_args)
        return verdict("run_failed", "launch",
                       "the kernel takes " + std::to_string(kernel_args) + " GM arguments, but the OpDef has " +
                           std::to_string(ins.size()) + " inputs + " + std::to_string(outs.size()) +
                           " outputs + workspace + tiling = " + std::to_string(expected_args));
    void* entry = dlsym(RTLD_DEFAULT, job.value("kernel", "").c_str());
    if (!entry)
        return verdict("run_failed", "launch",
                       "kernel function '" + job.value("kernel", "") + "' not found; declare it extern \"C\" __global__ __aicore__");

    uint64_t workspace = 0;
    for (size_t w : ctx.workspace()) workspace += w;
    const GmLayout layout = job.value("strict_gm", false) ? GmLayout::strict : GmLayout::pool;
    const size_t tiling_size = ctx.GetRawTilingData()->GetDataSize();
    uint64_t total = GmSpace::footprint(workspace, layout) + GmSpace::footprint(tiling_size, layout);
    for (const auto* list : {&ins, &outs})
        for (const auto& t : *list) total += GmSpace::footprint(t.bytes(), layout);
    GmSpace gm(total, layout);
    set_crash_report_gm(&gm);
    const bool preflight = job.value("preflight", false);  // see LaunchOptions::preflight
    std::vector<uint8_t*> args;
    for (const auto& t : ins) {
        if (t.name.empty()) {
            args.push_back(nullptr);
            continue;
        }
        args.push_back(gm.add(t.name, t.bytes()));
        if (!preflight) read_input(gm, args.back(), t);
    }
    std::vector<uint8_t*> out_addrs;
    for (const auto& t : outs) {
        // An output named like an input is that input, updated in place (a "ref" tensor, as
        // Eye's y): it starts with the input's data, as on the device where both are one buffer.
        uint8_t* shared = nullptr;
        for (size_t i = 0; i < ins.size(); ++i)
            if (!ins[i].name.empty() && ins[i].name == t.name && ins[i].bytes() == t.bytes()) shared = args[i];
        out_addrs.push_back(shared ? shared : gm.add(t.name, t.bytes()));
        if (!preflight && !shared) std::memset(gm.host(out_addrs.back()), 0xFF, t.bytes());  // unwritten outputs read as NaN / -1
        args.push_back(out_addrs.back());
    }
    args.push_back(gm.add("workspace", workspace));
    uint8_t* tiling = gm.add("tiling", tiling_size);
    std::memcpy(gm.host(tiling), ctx.GetRawTilingData()->GetData(), tiling_size);
    args.push_back(tiling);

    LaunchOptions options;
    options.preflight = preflight;
    options.strict_ub = job.value("strict_ub", false);
    options.timing = job.value("timing", true) && !preflight;
    const std::string trace_path = job.value("trace", "");
    options.trace = options.timing && !trace_path.empty();
    const LaunchResult launched = launch(*soc, entry, args, ctx.GetBlockDim(), ctx.GetTilingKey(), gm, options);
    if (options.trace && !overwrite_preopened(trace_path, chrome_trace(launched, *soc)))
        return verdict("run_failed", "harness", "cannot write the trace to " + trace_path);
    for (size_t i = 0; i < outs.size() && !preflight; ++i)
        if (!overwrite_fd(preopened_fd(outs[i].file), reinterpret_cast<const char*>(gm.host(out_addrs[i])), outs[i].bytes()))
            return verdict("run_failed", "harness", "cannot write output '" + outs[i].name + "' to " + outs[i].file);
    json result = {{"status", "ok"},
                   {"block_dim", ctx.GetBlockDim()},
                   {"tiling_key", ctx.GetTilingKey()},
                   {"tiling_bytes", tiling_size},
                   {"workspace_bytes", workspace},
                   {"ub_bytes", launched.ub_bytes},
                   {"ub_capacity", soc->ub_bytes},
                   {"instructions", counts_json(launched.counts)}};
    if (preflight) result["preflight"] = true;
    for (const auto& o : launched.ub_overruns)
        result["ub_overruns"].push_back({{"api", o.api}, {"which", o.which}, {"buffer", o.buffer}, {"bytes_past", o.bytes_past}});
    for (const auto& n : gm.padding_notes())
        result["gm_padding"].push_back({{"tensor", n.tensor}, {"api", n.api}, {"write", n.write}, {"bytes_past_end", n.bytes_past_end}});
    if (options.timing) result["timing"] = timing_json(launched, *soc);
    return result;
}

}  // namespace ascendopt_twin::harness
