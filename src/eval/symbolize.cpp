#include "eval/symbolize.h"

#include <sstream>

#include "util/files.h"
#include "util/subprocess.h"

namespace ascendopt {
namespace {

// "/tmp/x/op_kernel/cast.cpp:57 (discriminator 2)" -> ("op_kernel/cast.cpp", 57), if operator code.
std::optional<std::pair<std::string, int>> operator_location(const std::string& location) {
    for (const char* dir : {"op_kernel/", "op_host/"}) {
        const auto at = location.rfind(std::string("/") + dir);
        if (at == std::string::npos) continue;
        const auto colon = location.rfind(':');
        if (colon == std::string::npos || colon < at) return std::nullopt;
        const int line = std::atoi(location.c_str() + colon + 1);
        if (line <= 0) return std::nullopt;
        return std::make_pair(location.substr(at + 1, colon - at - 1), line);
    }
    return std::nullopt;
}

// "void KernelCast<half>::Compute<int>(int) const" -> "KernelCast<half>::Compute<int>": no
// return type (demangled function templates carry one), no parameters.
std::string without_parameters(const std::string& function) {
    if (function == "??") return "";
    int depth = 0;
    size_t start = 0;
    for (size_t i = 0; i < function.size(); ++i) {
        if (function[i] == '<') ++depth;
        if (function[i] == '>') --depth;
        if (function[i] == ' ' && depth == 0) start = i + 1;
        if (function[i] == '(' && depth == 0) return function.substr(start, i - start);
    }
    return function.substr(start);
}

// Functions of the twin and the standard library: debug line tables attribute some of them
// (those from the precompiled twin header) to the including operator file, so a location is
// trusted only when its function is the operator's own.
bool library_function(const std::string& f) {
    for (const char* prefix : {"ascendopt_twin::", "AscendC::", "std::", "__gnu_cxx::", "nlohmann::"})
        if (f.rfind(prefix, 0) == 0) return true;
    return false;
}

}  // namespace

std::string SourceLine::text() const { return file + ":" + std::to_string(line) + (function.empty() ? "" : " in " + function); }

std::optional<SourceLine> first_operator_line(const std::string& output) {
    // Per address: "0x...." then (function, location) pairs, innermost inline level first.
    std::istringstream in(output);
    std::string line, function;
    bool expect_function = false;
    while (std::getline(in, line)) {
        if (line.rfind("0x", 0) == 0) {
            expect_function = true;
            continue;
        }
        if (expect_function) {
            function = line;
            expect_function = false;
            continue;
        }
        if (auto loc = operator_location(line); loc && !library_function(without_parameters(function)))
            return SourceLine{loc->first, loc->second, without_parameters(function)};
        expect_function = true;
    }
    return std::nullopt;
}

std::optional<SourceLine> operator_source_line(const std::filesystem::path& binary, const std::vector<std::string>& offsets) {
    if (offsets.empty()) return std::nullopt;
    const auto tool = find_program("addr2line");
    if (!tool) return std::nullopt;
    std::vector<std::string> argv = {tool->string(), "-e", binary.string(), "-f", "-C", "-i", "-a"};
    for (const auto& o : offsets)
        if (o.rfind("0x", 0) == 0 && o.size() < 20 && o.find_first_not_of("0123456789abcdefx") == std::string::npos) argv.push_back(o);
    const ProcessResult r = run_process(argv, {.timeout_seconds = 30, .keep_bytes = 256 * 1024});
    if (!r.succeeded()) return std::nullopt;
    return first_operator_line(r.output);
}

}  // namespace ascendopt
