// Reading a job's parameters into the harness's tensors and the gert contexts. See harness_io.h.
#include "harness_io.h"

#include <algorithm>

#include "core/format.h"
#include "harness.h"
#include "harness_files.h"

namespace ascendopt_twin::harness {
namespace {

using nlohmann::json;

json verdict(const char* status, const std::string& api, const std::string& message) {
    return {{"status", status}, {"api", api}, {"message", message}};
}

// Converts a case's attribute value to the kind the OpDef declares; false if it does not fit.
bool to_attr(const json& v, gert::AttrValue::Kind kind, gert::AttrValue& out) {
    using K = gert::AttrValue::Kind;
    out.kind = kind;
    auto all = [&](auto pred) { return v.is_array() && std::all_of(v.begin(), v.end(), pred); };
    switch (kind) {
        case K::i64: if (!v.is_number()) return false; out.i = v.get<int64_t>(); return true;
        case K::f32: if (!v.is_number()) return false; out.f = v.get<float>(); return true;
        case K::boolean: if (!v.is_boolean()) return false; out.b = v.get<bool>(); return true;
        case K::str: if (!v.is_string()) return false; out.s = v.get<std::string>(); return true;
        case K::list_i64: if (!all([](const json& e) { return e.is_number(); })) return false; out.li = v.get<std::vector<int64_t>>(); return true;
        case K::list_f32: if (!all([](const json& e) { return e.is_number(); })) return false; out.lf = v.get<std::vector<float>>(); return true;
        case K::list_bool:
            if (!all([](const json& e) { return e.is_boolean(); })) return false;
            out.lb = v.get<std::vector<bool>>();
            return true;
        case K::list_list_i64:
            if (!all([](const json& e) { return e.is_array(); })) return false;
            for (const auto& e : v)
                if (!std::all_of(e.begin(), e.end(), [](const json& x) { return x.is_number(); })) return false;
            out.lli = v.get<std::vector<std::vector<int64_t>>>();
            return true;
        default: return false;
    }
}

std::vector<char> read_file_of(const Tensor& t) {
    std::vector<char> bytes(t.bytes());
    read_input_into(t, bytes.data());
    return bytes;
}

Tensor tensor_of(const json& j, const std::string& name) {
    const auto dt = ascendopt::parse_dtype(j.value("dtype", ""));
    if (!dt) finish_with_verdict(verdict("run_failed", "harness", "unknown dtype for '" + name + "'"));
    Tensor t;
    t.name = name;
    t.index = j.value("index", -1);
    t.dtype = *dt;
    t.shape = j.value("shape", std::vector<int64_t>{});
    t.file = j.value("file", "");
    t.format = ascendopt::format_code(j.value("format", "ND")).value_or(2);
    return t;
}

}  // namespace

bool reads_data(const ops::OpDef& op, size_t ir) {
    const host::OpImpl* impl = host::find_impl(op.type());
    return op.inputs()[ir].value_depend() || (impl && impl->reads_input_data(ir));
}

uint64_t Tensor::bytes() const {
    uint64_t n = 1;
    for (auto d : shape) n *= uint64_t(d);
    return n * ascendopt::dtype_size(dtype);
}

std::string Tensor::label() const { return index < 0 ? name : name + "[" + std::to_string(index) + "]"; }

const char* attr_kind_name(gert::AttrValue::Kind k) {
    switch (k) {
        case gert::AttrValue::Kind::i64: return "int";
        case gert::AttrValue::Kind::f32: return "float";
        case gert::AttrValue::Kind::boolean: return "bool";
        case gert::AttrValue::Kind::str: return "str";
        case gert::AttrValue::Kind::list_i64: return "list_int";
        case gert::AttrValue::Kind::list_f32: return "list_float";
        case gert::AttrValue::Kind::list_bool: return "list_bool";
        case gert::AttrValue::Kind::list_list_i64: return "list_list_int";
        default: return "none";
    }
}

namespace {

// The job's tensors named `name`, in list order; a missing required one or several for a plain
// parameter end the case with a verdict.
Param collect_param(const std::string& name, bool dynamic, bool required, const json& list, const char* what) {
    Param p{name, dynamic, {}};
    for (const auto& t : list)
        if (t.value("name", "") == name) p.tensors.push_back(tensor_of(t, name));
    std::stable_sort(p.tensors.begin(), p.tensors.end(), [](const Tensor& a, const Tensor& b) { return a.index < b.index; });
    if (p.tensors.empty() && required)
        finish_with_verdict(verdict("run_failed", "harness", std::string("the case gives no ") + what + " '" + name + "'"));
    if (p.tensors.size() > 1 && !p.dynamic)
        finish_with_verdict(verdict("run_failed", "harness",
                                    "the case gives " + std::to_string(p.tensors.size()) + " tensors for '" + name +
                                        "', which the OpDef does not declare DYNAMIC"));
    if (!p.dynamic)
        for (auto& t : p.tensors) t.index = -1;
    return p;
}

}  // namespace

std::vector<Param> params_for(const std::vector<ops::OpParamDef>& defs, const json& list, const char* what) {
    std::vector<Param> out;
    for (const auto& d : defs) out.push_back(collect_param(d.name(), d.option() == ops::DYNAMIC, d.option() != ops::OPTIONAL, list, what));
    return out;
}

std::vector<Param> params_from_plan(const json& plan_params, const json& list, const char* what) {
    std::vector<Param> out;
    for (const auto& d : plan_params) out.push_back(collect_param(d.value("name", ""), d.value("dynamic", false), false, list, what));
    return out;
}

void read_input_into(const Tensor& t, char* dest) {
    uint64_t size = 0;
    if (!read_preopened(t.file, dest, t.bytes(), size) || size != t.bytes())
        finish_with_verdict(verdict("run_failed", "harness",
                                    "input file " + t.file + " has " + std::to_string(size) + " bytes, expected " + std::to_string(t.bytes())));
}

void fill_io(gert::IoDesc& io, const ops::OpDef& op, const std::vector<Param>& ins, const std::vector<Param>& outs,
             std::vector<std::vector<char>>& host_data) {
    size_t tensors = 0;
    for (const auto& p : ins) tensors += p.tensors.size();
    host_data.reserve(tensors);  // Tensor::set_data keeps pointers into it
    for (size_t ir = 0; ir < ins.size(); ++ir) {
        io.input_ir.emplace_back(uint32_t(io.input_shapes.size()), uint32_t(ins[ir].tensors.size()));
        for (const auto& t : ins[ir].tensors) {
            gert::StorageShape s{gert::Shape(t.shape)};
            gert::CompileTimeTensorDesc d;
            d.set(ge::DataType(ascendopt::dtype_ge_code(t.dtype)), ge::Format(t.format));
            gert::Tensor tensor;
            tensor.set(s, d.GetDataType());
            if (!t.file.empty() && reads_data(op, ir)) {
                host_data.push_back(read_file_of(t));
                tensor.set_data(host_data.back().data(), host_data.back().size());
            }
            io.input_shapes.push_back(s);
            io.input_descs.push_back(d);
            io.input_tensors.push_back(tensor);
        }
    }
    for (const auto& p : outs) {
        io.output_ir.emplace_back(uint32_t(io.output_shapes.size()), uint32_t(p.tensors.size()));
        for (const auto& t : p.tensors) {
            gert::CompileTimeTensorDesc d;
            d.set(ge::DataType(ascendopt::dtype_ge_code(t.dtype)), ge::Format(t.format));
            io.output_shapes.emplace_back(gert::Shape(t.shape));
            io.output_descs.push_back(d);
        }
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

}  // namespace ascendopt_twin::harness
