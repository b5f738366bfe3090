#include "ascendopt_twin/twin_aclnn.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "ascendopt_twin/acl_device.h"

using nlohmann::json;

// What GetWorkspaceSize hands the launch: the announced case and each tensor of the call by
// its label. Single use, as aclnn executors are by default.
struct aclOpExecutor {
    std::string case_name;
    int run = 0;
    uint64_t workspace_bytes = 0;
    struct Bound {
        std::string label;
        const AscendoptTwinTensorView* view = nullptr;
        bool input = false;   // its bytes go to the launch
        bool output = false;  // its bytes come back from the launch
    };
    std::vector<Bound> tensors;
};

namespace ascendopt_twin::aclnn {
namespace {

constexpr aclnnStatus k_param_invalid = 161002;  // ACLNN_ERR_PARAM_INVALID
constexpr aclnnStatus k_inner = 561000;          // ACLNN_ERR_INNER
constexpr uint64_t k_largest_result = 16u << 20;

aclnnStatus refuse(aclnnStatus code, const std::string& message) { return ascendopt_twin_acl_fail(code, message.c_str()); }

// The package ascendopt wrote for this invoker, and the device channel it names.
struct Package {
    json doc;
    int request = -1;
    int reply = -1;
    std::string error;  // why it is unusable
};

std::mutex g_mutex;

Package& package() {
    static Package p = [] {
        Package out;
        const char* path = std::getenv("ASCENDOPT_TWIN_PACKAGE");
        if (!path || !*path) {
            out.error = "the twin's aclnn runs only under ascendopt (ASCENDOPT_TWIN_PACKAGE is not set)";
            return out;
        }
        std::ifstream in(path);
        out.doc = json::parse(in, nullptr, false);
        if (!out.doc.is_object() || !out.doc.contains("cases") || !out.doc["cases"].is_object()) {
            out.error = std::string("the twin package ") + path + " is not a package description";
            return out;
        }
        out.request = ::open(out.doc.value("request", "").c_str(), O_WRONLY | O_CLOEXEC);
        out.reply = ::open(out.doc.value("reply", "").c_str(), O_RDONLY | O_CLOEXEC);
        if (out.request < 0 || out.reply < 0) out.error = "cannot open the twin package's device channel";
        return out;
    }();
    return p;
}

std::string file_label(std::string label) {
    for (char& c : label)
        if (c == '[' || c == ']') c = '_';
    return label;
}

uint64_t element_count(const AscendoptTwinTensorView& v) {
    uint64_t n = 1;
    for (uint64_t k = 0; k < v.view_rank; ++k) n *= uint64_t(v.view_dims[k]);
    return n;
}

bool contiguous(const AscendoptTwinTensorView& v) {
    int64_t expected = 1;
    for (uint64_t k = v.view_rank; k-- > 0;) {
        if (v.view_dims[k] != 1 && v.strides[k] != expected) return false;
        expected *= v.view_dims[k];
    }
    return true;
}

uint8_t* data_of(const AscendoptTwinTensorView& v) {
    return static_cast<uint8_t*>(v.data) + uint64_t(v.offset) * aclDataTypeSize(v.data_type);
}

uint64_t bytes_of(const AscendoptTwinTensorView& v) { return element_count(v) * aclDataTypeSize(v.data_type); }

std::string shape_text(const AscendoptTwinTensorView& v) {
    std::string out = "[";
    for (uint64_t k = 0; k < v.view_rank; ++k) out += (k ? ", " : "") + std::to_string(v.view_dims[k]);
    return out + "]";
}

// Checks one tensor of the call against what the case says of its label.
std::string mismatch(const json& want, const AscendoptTwinTensorView& v, const std::string& label) {
    std::vector<int64_t> dims(v.view_dims, v.view_dims + v.view_rank);
    if (want.value("acl_dtype", -1) != int(v.data_type) || want.value("shape", std::vector<int64_t>{}) != dims)
        return "tensor '" + label + "' is type " + std::to_string(int(v.data_type)) + " of shape " + shape_text(v) + ", but the case has type " +
               std::to_string(want.value("acl_dtype", -1)) + " of shape " + want.value("shape", json::array()).dump();
    if (!contiguous(v)) return "tensor '" + label + "' is not contiguous, which the twin's aclnn does not take";
    return "";
}

// Two attribute values agree: equal, numbers within float rounding.
bool same_value(const json& a, const json& b) {
    if (a.is_number() && b.is_number()) {
        const double x = a.get<double>(), y = b.get<double>();
        return x == y || std::fabs(x - y) <= 1e-6 * std::max(std::fabs(x), std::fabs(y));
    }
    if (a.is_array() && b.is_array()) {
        if (a.size() != b.size()) return false;
        for (size_t i = 0; i < a.size(); ++i)
            if (!same_value(a[i], b[i])) return false;
        return true;
    }
    return a == b;
}

// The call's tensors by label, checked against the case; "" or the first mismatch.
std::string bind_tensors(const std::vector<Arg>& args, const json& tensors, aclOpExecutor& ex) {
    size_t seen = 0;
    auto bind = [&](const std::string& label, const aclTensor* t) -> std::string {
        const AscendoptTwinTensorView* v = t ? ascendopt_twin_tensor_view(t) : nullptr;
        if (t && !v) return "tensor '" + label + "' is not a live aclTensor";
        if (!v) return tensors.contains(label) ? "tensor '" + label + "' is absent, but the case gives it" : "";
        if (!tensors.contains(label)) return "tensor '" + label + "' is given, but the case leaves it out";
        if (std::string m = mismatch(tensors[label], *v, label); !m.empty()) return m;
        ex.tensors.push_back({label, v, tensors[label].value("input", false), tensors[label].value("output", false)});
        ++seen;
        return "";
    };
    for (const auto& a : args) {
        if (!a.is_list) {
            if (std::string m = bind(a.name, a.tensor); !m.empty()) return m;
            continue;
        }
        uint64_t n = 0;
        const aclTensor* const* items = a.list ? ascendopt_twin_tensor_list(a.list, &n) : nullptr;
        if (a.list && !items) return "tensor list '" + a.name + "' is not a live aclTensorList";
        for (uint64_t i = 0; i < n; ++i)
            if (std::string m = bind(a.name + "[" + std::to_string(i) + "]", items[i]); !m.empty()) return m;
    }
    if (seen != tensors.size()) return "the call gives " + std::to_string(seen) + " tensors, but the case has " + std::to_string(tensors.size());
    return "";
}

std::string check_attrs(const std::vector<AttrArg>& given, const json& wanted) {
    for (const auto& [name, value] : wanted.items()) {
        const AttrArg* arg = nullptr;
        for (const auto& a : given)
            if (a.name == name) arg = &a;
        if (!arg) return "the call has no attribute '" + name + "'";
        const json got = json::parse(arg->json, nullptr, false);
        if (!same_value(got, value)) return "attribute '" + name + "' is " + arg->json + " in the call, but " + value.dump() + " in the case";
    }
    return "";
}

bool write_bytes(const std::string& path, const uint8_t* data, uint64_t bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), std::streamsize(bytes));
    return bool(out);
}

// Reads exactly `bytes` from `path` into `dest`.
bool read_bytes(const std::string& path, uint8_t* dest, uint64_t bytes) {
    std::ifstream in(path, std::ios::binary);
    in.read(reinterpret_cast<char*>(dest), std::streamsize(bytes));
    return uint64_t(in.gcount()) == bytes && in.peek() == std::char_traits<char>::eof();
}

bool write_line(int fd, const std::string& line) {
    size_t done = 0;
    while (done < line.size()) {
        const ssize_t n = ::write(fd, line.data() + done, line.size() - done);
        if (n <= 0) return false;
        done += size_t(n);
    }
    return true;
}

bool read_line(int fd, std::string& line) {
    line.clear();
    char c = 0;
    while (::read(fd, &c, 1) == 1) {
        if (c == '\n') return true;
        line += c;
    }
    return false;
}

// Asks ascendopt to run the case in `dir`; the operator binary's result document, or null.
json run_on_device(Package& p, const aclOpExecutor& ex, const std::string& dir, std::string& why) {
    std::string reply;
    if (!write_line(p.request, "launch " + ex.case_name + " " + std::to_string(ex.run) + " " + dir + "\n") || !read_line(p.reply, reply) ||
        reply != "done") {
        why = "the twin device did not answer the launch";
        return nullptr;
    }
    std::ifstream in(dir + "/result.json");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (text.size() > k_largest_result) text.clear();
    json result = json::parse(text, nullptr, false);
    if (!result.is_object()) why = "the kernel's process ended without a result (" + dir + ")";
    return result.is_object() ? result : json(nullptr);
}

}  // namespace

std::string json_of(int64_t v) { return std::to_string(v); }
std::string json_of(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return std::isfinite(v) ? buf : "null";
}
std::string json_of(bool v) { return v ? "true" : "false"; }
std::string json_of(const char* v) { return v ? json(std::string(v)).dump() : "null"; }
std::string json_of(const aclIntArray* v) {
    uint64_t n = 0;
    const int64_t* values = ascendopt_twin_int_array(v, &n);
    return values ? json(std::vector<int64_t>(values, values + n)).dump() : "null";
}
std::string json_of(const aclFloatArray* v) {
    uint64_t n = 0;
    const float* values = ascendopt_twin_float_array(v, &n);
    return values ? json(std::vector<double>(values, values + n)).dump() : "null";
}
std::string json_of(const aclBoolArray* v) {
    uint64_t n = 0;
    const bool* values = ascendopt_twin_bool_array(v, &n);
    return values ? json(std::vector<bool>(values, values + n)).dump() : "null";
}

aclnnStatus get_workspace(const char* op_type, const std::vector<Arg>& args, const std::vector<AttrArg>& attrs, uint64_t* workspace_size,
                          aclOpExecutor** executor) {
    std::lock_guard<std::mutex> lock(g_mutex);
    Package& p = package();
    if (!p.error.empty()) return refuse(k_inner, p.error);
    if (!workspace_size || !executor) return refuse(k_param_invalid, std::string("aclnn") + op_type + "GetWorkspaceSize: a result pointer is null");
    if (p.doc.value("op", "") != op_type) return refuse(k_inner, std::string("the twin package is for ") + p.doc.value("op", "") + ", not " + op_type);
    int run = -1;
    const std::string name = ascendopt_twin_acl_current_case(&run);
    if (!p.doc["cases"].contains(name)) return refuse(k_inner, "the twin package has no case '" + name + "' (the invoker announces each case)");
    const json& c = p.doc["cases"][name];
    auto ex = std::make_unique<aclOpExecutor>();
    ex->case_name = name;
    ex->run = run;
    ex->workspace_bytes = c.value("workspace_bytes", uint64_t(0));
    std::string m = bind_tensors(args, c.value("tensors", json::object()), *ex);
    if (m.empty()) m = check_attrs(attrs, c.value("attrs", json::object()));
    if (!m.empty()) return refuse(k_param_invalid, std::string("aclnn") + op_type + "GetWorkspaceSize, case " + name + ": " + m);
    *workspace_size = ex->workspace_bytes;
    *executor = ex.release();
    return 0;
}

aclnnStatus launch(void* workspace, uint64_t workspace_size, aclOpExecutor* executor, aclrtStream stream) {
    std::unique_ptr<aclOpExecutor> ex(executor);
    std::lock_guard<std::mutex> lock(g_mutex);
    Package& p = package();
    if (!ex) return refuse(k_param_invalid, "aclnn launch: the executor is null");
    if (workspace_size < ex->workspace_bytes || (ex->workspace_bytes && !workspace))
        return refuse(k_param_invalid, "aclnn launch: the workspace holds " + std::to_string(workspace_size) + " bytes, the tiling needs " +
                                           std::to_string(ex->workspace_bytes));
    static int launches = 0;
    const std::string dir = p.doc.value("scratch", "") + "/launch-" + std::to_string(++launches);
    if (::mkdir(dir.c_str(), 0700) != 0) return refuse(k_inner, "cannot make the launch folder " + dir);
    for (const auto& t : ex->tensors)
        if (t.input && !write_bytes(dir + "/in_" + file_label(t.label) + ".bin", data_of(*t.view), bytes_of(*t.view)))
            return refuse(k_inner, "cannot write tensor '" + t.label + "' for the launch");
    std::string why;
    const json result = run_on_device(p, *ex, dir, why);
    if (result.is_null()) return refuse(k_inner, why);
    if (result.value("status", "") != "ok")
        return refuse(k_inner, "twin: " + result.value("status", "") + " (" + result.value("api", "") + "): " + result.value("message", ""));
    for (const auto& t : ex->tensors)
        if (t.output && !read_bytes(dir + "/out_" + file_label(t.label) + ".bin", data_of(*t.view), bytes_of(*t.view)))
            return refuse(k_inner, "the launch left no output '" + t.label + "' of " + std::to_string(bytes_of(*t.view)) + " bytes");
    const double latency_us = result.contains("timing") ? result["timing"].value("latency_us", 0.0) : 0.0;
    if (aclError rc = ascendopt_twin_acl_charge(stream, uint64_t(std::llround(latency_us * 1000.0)))) return rc;
    return 0;
}

}  // namespace ascendopt_twin::aclnn
