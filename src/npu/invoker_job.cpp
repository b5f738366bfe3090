#include "npu/invoker_job.h"

#include <cstdio>
#include <sstream>

#include "npu/aclnn_signature.h"

namespace ascendopt {
namespace {

bool is_token(const std::string& s) { return !s.empty() && s.find_first_of(" \t\r\n") == std::string::npos; }

std::string number(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

std::string hex(const std::string& bytes) {
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (unsigned char c : bytes) {
        out += digits[c >> 4];
        out += digits[c & 15];
    }
    return out.empty() ? "-" : out;
}

Result<std::string> path_token(const std::filesystem::path& p) {
    if (!is_token(p.string())) return make_error("invoker job: the path '" + p.string() + "' is empty or holds whitespace");
    return p.string();
}

// "DTYPE RANK DIMS... IN_FILE" and what follows for the kind.
Result<std::string> tensor_fields(const InvokerTensor& t, InvokerParam::Kind kind) {
    std::string out = std::to_string(acl_data_type(t.dtype)) + " " + std::to_string(t.dims.size());
    for (int64_t d : t.dims) out += " " + std::to_string(d);
    if (kind == InvokerParam::Kind::output) {
        out += " " + hex(std::string(t.poison.begin(), t.poison.end()));
    } else {
        auto in = path_token(t.in_file);
        if (!in) return in.error();
        out += " " + *in;
    }
    if (kind == InvokerParam::Kind::ref || kind == InvokerParam::Kind::output) {
        auto o = path_token(t.out_file);
        if (!o) return o.error();
        out += " " + *o;
    }
    return out;
}

template <class T, class F>
std::string list_fields(const std::vector<T>& values, F text) {
    std::string out = std::to_string(values.size());
    for (const auto& v : values) out += " " + text(v);
    return out;
}

Result<std::string> param_line(size_t index, const InvokerParam& p) {
    using K = InvokerParam::Kind;
    std::string head = "param " + std::to_string(index) + " ";
    switch (p.kind) {
        case K::absent: return head + "absent";
        case K::tensor:
        case K::ref:
        case K::output: {
            auto fields = tensor_fields(p.tensor, p.kind);
            if (!fields) return fields.error();
            const char* word = p.kind == K::tensor ? "tensor " : p.kind == K::ref ? "ref " : "output ";
            return head + word + *fields;
        }
        case K::tensor_list: {
            std::string out = head + "tensor_list " + std::to_string(p.elements.size());
            for (const auto& e : p.elements) {
                auto fields = tensor_fields(e, K::tensor);
                if (!fields) return fields.error();
                out += "\nelement " + *fields;
            }
            return out;
        }
        case K::int_value: return head + "int " + std::to_string(p.i);
        case K::float_value: return head + "float " + number(p.f);
        case K::bool_value: return head + "bool " + (p.b ? "1" : "0");
        case K::str: return head + "str " + hex(p.s);
        case K::int_array: return head + "int_array " + list_fields(p.ints, [](int64_t v) { return std::to_string(v); });
        case K::float_array: return head + "float_array " + list_fields(p.floats, number);
        case K::bool_array: return head + "bool_array " + list_fields(p.bools, [](bool v) { return std::string(v ? "1" : "0"); });
    }
    return make_error("invoker job: unknown parameter kind");
}

bool unhex(const std::string& text, std::string& out) {
    out.clear();
    if (text == "-") return true;
    if (text.size() % 2) return false;
    for (size_t k = 0; k < text.size(); k += 2) {
        unsigned v = 0;
        if (std::sscanf(text.substr(k, 2).c_str(), "%2x", &v) != 1) return false;
        out += char(v);
    }
    return true;
}

bool parse_result_line(const std::string& line, InvokerCaseResult& r) {
    std::istringstream in(line);
    std::string word, status;
    if (!(in >> word >> r.name >> status) || word != "case") return false;
    if (status == "ok") {
        r.ok = true;
        if (!(in >> r.workspace_bytes)) return false;
        double ms = 0;
        while (in >> ms) r.ms.push_back(ms);
        return in.eof();
    }
    std::string message;
    return status == "failed" && bool(in >> r.stage >> r.code >> message) && unhex(message, r.message);
}

}  // namespace

Result<std::string> invoker_job_text(const InvokerJob& job) {
    std::string out = "ascendopt-invoker-job 1\n";
    out += "device " + std::to_string(job.device) + "\nwarmup " + std::to_string(job.warmup) + "\nrepeats " + std::to_string(job.repeats) + "\n";
    for (const auto& c : job.cases) {
        if (!is_token(c.name)) return make_error("invoker job: the case name '" + c.name + "' is empty or holds whitespace");
        out += "case " + c.name + "\n";
        for (size_t i = 0; i < c.params.size(); ++i) {
            auto line = param_line(i, c.params[i]);
            if (!line) return line.error();
            out += *line + "\n";
        }
        out += "end\n";
    }
    return out;
}

Result<std::vector<InvokerCaseResult>> parse_invoker_results(const std::string& text) {
    std::vector<InvokerCaseResult> out;
    std::istringstream in(text);
    std::string line;
    size_t number = 0;
    while (std::getline(in, line)) {
        ++number;
        if (line.empty()) continue;
        InvokerCaseResult r;
        if (!parse_result_line(line, r))
            return make_error("the invoker's results, line " + std::to_string(number) + ", are malformed: " + line.substr(0, 200));
        out.push_back(std::move(r));
    }
    return out;
}

}  // namespace ascendopt
