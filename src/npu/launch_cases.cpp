#include "npu/launch_cases.h"

#include "util/files.h"

namespace ascendopt {
namespace fs = std::filesystem;
using nlohmann::json;

std::string tensor_label(const json& t) {
    return t.value("name", "") + (t.contains("index") ? "[" + std::to_string(t.value("index", 0)) + "]" : "");
}

CaseTensors tensors_of(const json& c) {
    CaseTensors t;
    for (const auto& in : c["inputs"]) t.inputs[tensor_label(in)] = &in;
    for (const auto& out : c["outputs"]) t.outputs[tensor_label(out)] = &out;
    return t;
}

namespace {

Result<DType> dtype_of(const json& t) {
    auto d = parse_dtype(t.value("dtype", ""));
    if (!d) return make_error("internal: case tensor '" + tensor_label(t) + "' has no known dtype");
    return *d;
}

Result<InvokerTensor> invoker_tensor(const json& t) {
    auto d = dtype_of(t);
    if (!d) return d.error();
    InvokerTensor out;
    out.dtype = *d;
    out.dims = t.value("shape", std::vector<int64_t>{});
    out.in_file = t.value("file", "");
    return out;
}

// One attribute's value in the invoker job: the case's, else the OpDef default.
Result<InvokerParam> attr_param(const AclnnParam& p, const json& attrs, const OpDefInfo& op) {
    json v = attrs.contains(p.opdef_name) ? attrs[p.opdef_name] : json();
    if (v.is_null())
        for (const auto& a : op.attrs)
            if (a.name == p.opdef_name) v = a.default_value;
    InvokerParam out;
    using K = InvokerParam::Kind;
    try {
        if (v.is_null()) return out;  // absent: the tiling said what it needed
        if (p.attr_kind == "int") out.kind = K::int_value, out.i = v.get<int64_t>();
        else if (p.attr_kind == "float") out.kind = K::float_value, out.f = v.get<double>();
        else if (p.attr_kind == "bool") out.kind = K::bool_value, out.b = v.get<bool>();
        else if (p.attr_kind == "str") out.kind = K::str, out.s = v.get<std::string>();
        else if (p.attr_kind == "list_int") out.kind = K::int_array, out.ints = v.get<std::vector<int64_t>>();
        else if (p.attr_kind == "list_float") out.kind = K::float_array, out.floats = v.get<std::vector<double>>();
        else if (p.attr_kind == "list_bool") out.kind = K::bool_array, out.bools = v.get<std::vector<bool>>();
    } catch (const json::exception&) {
        return make_error("attribute '" + p.opdef_name + "' = " + v.dump() + " is not a " + p.attr_kind);
    }
    return out;
}

// The invoker's view of one case: each aclnn parameter's value, outputs to `work_dir`'s files.
Result<InvokerCase> invoker_case(const json& c, const AclnnSignature& sig, const OpDefInfo& op) {
    InvokerCase out{c.value("name", ""), {}};
    const CaseTensors t = tensors_of(c);
    std::array<uint8_t, 8> poison{};
    const std::string hex = c.value("poison", std::string(16, 'f'));
    for (size_t k = 0; k < 8 && 2 * k + 1 < hex.size(); ++k) poison[k] = uint8_t(std::stoul(hex.substr(2 * k, 2), nullptr, 16));
    using K = InvokerParam::Kind;
    for (const auto& p : sig.params) {
        InvokerParam v;
        if (p.role == AclnnParam::Role::attr) {
            auto a = attr_param(p, c.value("attrs", json::object()), op);
            if (!a) return a.error();
            v = std::move(*a);
        } else if (p.dynamic) {
            v.kind = K::tensor_list;
            for (int i = 0; t.inputs.count(p.opdef_name + "[" + std::to_string(i) + "]"); ++i) {
                auto e = invoker_tensor(*t.inputs.at(p.opdef_name + "[" + std::to_string(i) + "]"));
                if (!e) return e.error();
                v.elements.push_back(*e);
            }
            if (v.elements.empty()) v.kind = K::absent;
        } else if (p.role == AclnnParam::Role::input && t.inputs.count(p.opdef_name)) {
            auto e = invoker_tensor(*t.inputs.at(p.opdef_name));
            if (!e) return e.error();
            v.tensor = *e;
            v.kind = K::tensor;
            if (t.outputs.count(p.opdef_name)) {  // updated in place: read back after the run
                v.kind = K::ref;
                v.tensor.out_file = t.outputs.at(p.opdef_name)->value("file", "");
            }
        } else if (p.role == AclnnParam::Role::output && t.outputs.count(p.opdef_name)) {
            auto e = invoker_tensor(*t.outputs.at(p.opdef_name));
            if (!e) return e.error();
            v.kind = K::output;
            v.tensor = *e;
            v.tensor.out_file = e->in_file;
            v.tensor.in_file.clear();
            v.tensor.poison = poison;
        }
        out.params.push_back(std::move(v));
    }
    return out;
}

}  // namespace

Result<InvokerJob> invoker_job_of(const DeviceLaunch& launch, const AclnnSignature& sig, int warmup, int repeats) {
    if (!launch.opdef) return make_error("internal: a launch through aclnn without the operator's OpDef");
    InvokerJob job{0, warmup, repeats, {}};  // the invoker sees its one device as device 0
    for (const auto& c : launch.job["cases"]) {
        auto ic = invoker_case(c, sig, *launch.opdef);
        if (!ic) return ic.error();
        job.cases.push_back(std::move(*ic));
    }
    return job;
}

std::map<std::string, fs::path> result_paths(const DeviceLaunch& launch) {
    std::map<std::string, fs::path> out;
    for (const auto& c : launch.job["cases"]) out[c.value("name", "")] = c.value("result", "");
    return out;
}

void write_invoker_failure(const fs::path& result, const std::string& api, const std::string& message) {
    (void)write_atomic(result, json{{"status", "run_failed"}, {"api", api}, {"message", message}}.dump());
}

}  // namespace ascendopt
