// Where in the operator's own sources a failure happened. The operator binary reports the
// return addresses of the failing stack (offsets into itself); addr2line, with the line tables
// the builds keep (-g1), maps them to source lines, inlined calls included, and the first one
// in op_kernel/ or op_host/ is the operator line that called the failing API or crashed.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ascendopt {

struct SourceLine {
    std::string file;      // from op_kernel/ or op_host/ on, e.g. "op_kernel/cast.cpp"
    int line = 0;
    std::string function;  // demangled, without parameters; may be empty
    std::string text() const;  // "op_kernel/cast.cpp:57 in KernelCast::Compute"
};

// The operator source line for `offsets` (hex strings, innermost first) in `binary`, or
// nullopt when addr2line is missing or no frame lies in operator code.
std::optional<SourceLine> operator_source_line(const std::filesystem::path& binary, const std::vector<std::string>& offsets);

// The same, from addr2line's output for `addr2line -f -C -i -a` (exposed for tests).
std::optional<SourceLine> first_operator_line(const std::string& addr2line_output);

}  // namespace ascendopt
