#include "eval/generated_names.h"

#include <cctype>
#include <cstdio>

namespace ascendopt {
namespace {

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// What the first character that no identifier may hold is, for a message: "a newline", "'#'".
std::string describe_char(char c) {
    switch (c) {
        case '\n': return "a newline";
        case '\r': return "a carriage return";
        case '\t': return "a tab";
        case ' ': return "a space";
        default: break;
    }
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte >= 0x7F) {
        char hex[16];
        std::snprintf(hex, sizeof hex, "the byte 0x%02X", unsigned(byte));
        return hex;
    }
    return std::string("'") + c + "'";
}

// Why `part` (one identifier of a name) is none, or "".
std::string unfit_part(const std::string& part) {
    if (part.empty()) return "it has an empty part";
    if (!ident_start(part[0])) return "a part starts with " + describe_char(part[0]);
    for (char c : part)
        if (!ident_char(c)) return "it holds " + describe_char(c);
    return "";
}

}  // namespace

std::string unfit_identifier(const std::string& name, bool qualified) {
    if (name.empty()) return "it is empty";
    if (name.size() > k_longest_generated_name) return "it is longer than " + std::to_string(k_longest_generated_name) + " characters";
    if (!qualified) return unfit_part(name);
    size_t from = name.rfind("::", 0) == 0 ? 2 : 0;
    while (true) {
        const size_t sep = name.find("::", from);
        if (auto why = unfit_part(name.substr(from, sep == std::string::npos ? std::string::npos : sep - from)); !why.empty()) return why;
        if (sep == std::string::npos) return "";
        from = sep + 2;
    }
}

std::string unfit_define(const std::string& define) {
    const size_t eq = define.find('=');
    if (auto why = unfit_identifier(define.substr(0, eq)); !why.empty()) return "its name: " + why;
    if (eq == std::string::npos) return "";
    const std::string value = define.substr(eq + 1);
    for (char c : value)
        if (c == '\n' || c == '\r') return "its value holds " + describe_char(c);
    if (!value.empty() && value.back() == '\\') return "its value ends in a backslash, which would join the next line to it";
    return "";
}

std::string escaped_name(const std::string& text) {
    std::string out = "\"";
    for (char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') out += std::string("\\") + c;
        else if (c == '\n') out += "\\n";
        else if (c == '\r') out += "\\r";
        else if (c == '\t') out += "\\t";
        else if (byte < 0x20 || byte >= 0x7F) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02X", unsigned(byte));
            out += hex;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

Status check_generated_name(const std::string& what, const std::string& name, bool qualified) {
    const std::string why = unfit_identifier(name, qualified);
    if (why.empty()) return ok_status();
    Error e = make_error(what + " is " + escaped_name(name) + ", which is not a " + (qualified ? "C++ name" : "C identifier") + " (" + why +
                         "): the kernel build writes it into a header of its own, where it may only name something; name it with "
                         "letters, digits and underscores (at most " + std::to_string(k_longest_generated_name) + ")");
    e.refused = true;
    return e;
}

Status check_generated_define(const std::string& what, const std::string& define) {
    const std::string why = unfit_define(define);
    if (why.empty()) return ok_status();
    Error e = make_error(what + " " + escaped_name(define) + " cannot be written into the kernel build's header of defines (" + why +
                         "): a define is NAME or NAME=VALUE, NAME an identifier and VALUE one line");
    e.refused = true;
    return e;
}

Status check_kernel_build_names(const OperatorSource& op, const OpDefInfo& opdef, const Case& sample, const std::string& kernel_name) {
    if (auto s = check_generated_name("the operator type the host code registers", opdef.type); !s) return s;
    for (const auto* params : {&opdef.inputs, &opdef.outputs})
        for (const auto& p : *params)
            if (auto s = check_generated_name("a parameter name of the OpDef", p.name); !s) return s;
    for (const auto* tensors : {&sample.inputs, &sample.outputs})
        for (const auto& t : *tensors)
            if (auto s = check_generated_name("a tensor name of case " + sample.name, t.name); !s) return s;
    if (auto s = check_generated_name("the kernel's entry function", kernel_name); !s) return s;
    for (const auto* defines : {&op.host_defines, &op.kernel_defines})
        for (const auto& d : *defines)
            if (auto s = check_generated_define("the operator's build define", d); !s) return s;
    return ok_status();
}

}  // namespace ascendopt
