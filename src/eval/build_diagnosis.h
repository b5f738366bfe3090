// What a failed build's compiler and linker output says is missing: the names an operator
// uses that the twin does not provide. `ascendopt check` ranks them by how many operators
// each one blocks (docs/cann-ops.md).
#pragma once

#include <string>
#include <vector>

namespace ascendopt {

struct MissingApi {
    // The qualified name as the operator spells it, template arguments dropped:
    // "AscendC::Foo", "AscendC::TPipe::Bar", "Baz (no overload for these arguments)",
    // "header kernel_foo.h".
    std::string api;
    std::string location;  // "op_kernel/foo.cpp:12" when the diagnostic names a file
};

// The distinct missing names in the order the diagnostics report them; empty when the errors
// are of another kind (a syntax error, a type mismatch).
std::vector<MissingApi> missing_apis(const std::string& build_log);

// The first error line of a build log without its file prefix ("'x' was not declared in this
// scope"), or the log's first line when it has none.
std::string first_build_error(const std::string& build_log);

}  // namespace ascendopt
