#include "eval/build_diagnosis.h"

#include <cctype>
#include <regex>
#include <set>
#include <sstream>

namespace ascendopt {
namespace {

// "AscendC::LocalTensor<float>" -> "AscendC::LocalTensor"; "class X" -> "X".
std::string plain_name(std::string s) {
    for (const char* prefix : {"const ", "volatile ", "class ", "struct ", "union ", "enum "})
        if (s.rfind(prefix, 0) == 0) s = s.substr(std::string(prefix).size());
    std::string out;
    int depth = 0;
    for (char c : s) {
        if (c == '<') ++depth;
        else if (c == '>') depth = std::max(0, depth - 1);
        else if (depth == 0) out += c;
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
}

// "Foo<half>(AscendC::LocalTensor<half>&, int)" -> "Foo".
std::string callee(const std::string& call) {
    std::string name;
    int depth = 0;
    for (char c : call) {
        if (c == '(' && depth == 0) break;
        if (c == '<') ++depth;
        else if (c == '>') depth = std::max(0, depth - 1);
        else if (depth == 0) name += c;
    }
    return name;
}

// "/tmp/x/op_kernel/foo.cpp:12:5: error: ..." -> "op_kernel/foo.cpp:12".
std::string location_of(const std::string& line) {
    static const std::regex file(R"(^(.*?):(\d+):(?:\d+:)? (?:fatal )?error:)");
    std::smatch m;
    if (!std::regex_search(line, m, file)) return "";
    std::string path = m[1].str();
    for (const char* dir : {"op_kernel/", "op_host/"})
        if (const auto at = path.rfind(dir); at != std::string::npos) return path.substr(at) + ":" + m[2].str();
    return "";  // a twin header: the operator's line is in the "required from" notes, not here
}

// Standard names an operator may use unqualified or without including their header, because
// the CANN headers it includes bring them in.
bool standard_name(const std::string& n) {
    static const std::set<std::string> names = {"map", "vector", "string", "set", "unordered_map", "pair", "array", "min", "max",
                                                "swap", "move", "unique_ptr", "shared_ptr", "make_unique", "make_shared", "cout",
                                                "cerr", "endl", "abs", "sqrt", "ceil", "floor", "tuple", "function", "numeric_limits"};
    return names.count(n) > 0;
}

// An undeclared name: an API the twin lacks, unless it is a lowercase local (a variable whose
// declaration failed on an earlier missing type, which that type's entry already counts).
std::string undeclared(const std::string& raw) {
    const std::string n = plain_name(raw);
    if (n.find("::") != std::string::npos || n.empty() || std::isupper(static_cast<unsigned char>(n[0])) || n[0] == '_') return n;
    return standard_name(n) ? "std::" + n + " (unqualified or without its header)" : "";
}

struct Pattern {
    std::regex re;
    // Builds the name from the captures.
    std::string (*name)(const std::smatch&);
};

const std::vector<Pattern>& patterns() {
    static const std::vector<Pattern> all = {
        {std::regex(R"(error: '([^']+)' is not a member of '([^']+)')"),
         [](const std::smatch& m) { return plain_name(m[2]) + "::" + m[1].str(); }},
        {std::regex(R"(error: '([^']+)' in namespace '([^']+)' does not name a (?:template )?type)"),
         [](const std::smatch& m) { return plain_name(m[2]) + "::" + m[1].str(); }},
        {std::regex(R"(error: '([^']+)' has no member named '([^']+)')"),
         [](const std::smatch& m) { return plain_name(m[1]) + "::" + m[2].str(); }},
        {std::regex(R"(error: no type named '([^']+)' in '([^']+)')"),
         [](const std::smatch& m) { return plain_name(m[2]) + "::" + m[1].str(); }},
        {std::regex(R"(error: no member named '([^']+)' in (?:namespace )?'([^']+)')"),
         [](const std::smatch& m) { return plain_name(m[2]) + "::" + m[1].str(); }},
        {std::regex(R"(error: '([^']+)' (?:was not declared in this scope|has not been declared|does not name a (?:template )?type))"),
         [](const std::smatch& m) { return undeclared(m[1]); }},
        {std::regex(R"(error: use of undeclared identifier '([^']+)')"), [](const std::smatch& m) { return plain_name(m[1]); }},
        {std::regex(R"(error: no matching function for call to '(.+)'$)"),
         [](const std::smatch& m) { return callee(m[1]) + " (no overload for these arguments)"; }},
        {std::regex(R"(error: invalid use of incomplete type '([^']+)')"), [](const std::smatch& m) { return plain_name(m[1]); }},
        {std::regex(R"(fatal error: ([^:]+): No such file or directory)"), [](const std::smatch& m) { return "header " + m[1].str(); }},
        {std::regex(R"(undefined reference to [`']([^']+)')"), [](const std::smatch& m) { return callee(m[1]); }},
    };
    return all;
}

}  // namespace

std::vector<MissingApi> missing_apis(const std::string& build_log) {
    std::vector<MissingApi> out;
    std::set<std::string> seen;
    std::istringstream lines(build_log);
    std::string line;
    while (std::getline(lines, line)) {
        if (line.find("error") == std::string::npos && line.find("undefined reference") == std::string::npos) continue;
        for (const auto& p : patterns()) {
            std::smatch m;
            if (!std::regex_search(line, m, p.re)) continue;
            std::string api = p.name(m);
            if (!api.empty() && seen.insert(api).second) out.push_back({api, location_of(line)});
            break;
        }
    }
    return out;
}

std::string first_build_error(const std::string& build_log) {
    std::istringstream lines(build_log);
    std::string line, first;
    while (std::getline(lines, line)) {
        if (first.empty() && !line.empty()) first = line;
        const auto at = line.find("error: ");
        if (at != std::string::npos) return line.substr(at + 7);
    }
    return first;
}

}  // namespace ascendopt
