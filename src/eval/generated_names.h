// Names in generated sources. A kernel build writes headers of its own (build_defines.h,
// tiling_names.h) that the static screen never reads, and the names it writes there come from
// the operator: its OpDef and tiling class as its --describe run reports them, its sources, its
// build files. Each must be a C identifier (a type may be a qualified name of identifiers) of a
// bounded length, or a -D define of one, so that it can only ever name something: a newline, a
// quote or a `#` in one would put text of the operator's choosing into a file no screen reads.
#pragma once

#include <cstddef>
#include <string>

#include "core/case.h"
#include "eval/opdef.h"
#include "eval/operator_source.h"
#include "util/result.h"

namespace ascendopt {

constexpr size_t k_longest_generated_name = 256;

// Why `name` may not be written into a generated source, or "" when it may: it must match
// [A-Za-z_][A-Za-z0-9_]* and be at most k_longest_generated_name long. `qualified` also accepts
// identifiers joined by `::` (with a leading `::`), the name of a type.
std::string unfit_identifier(const std::string& name, bool qualified = false);

// The same for a define as -D takes it, NAME or NAME=VALUE: NAME an identifier, VALUE one line
// that does not end in a backslash (which would join the next line to it).
std::string unfit_define(const std::string& define);

// `text` in double quotes, with quotes, backslashes and every byte outside printable ASCII
// escaped (\n, \", \x01), so that a refusal shows exactly what was refused.
std::string escaped_name(const std::string& text);

// ok when `name` (`what` it is: "the tiling class the host code registers") may be written into
// a generated source; else a refusal (Error::refused) that shows it escaped and says why.
Status check_generated_name(const std::string& what, const std::string& name, bool qualified = false);
Status check_generated_define(const std::string& what, const std::string& define);

// Every name a kernel build of `op` for `sample` writes into its generated headers, but the
// tiling class (checked once chosen): the operator's type (read into a pattern too), the
// OpDef's and the case's parameter names, the kernel entry's name and the operator's defines.
Status check_kernel_build_names(const OperatorSource& op, const OpDefInfo& opdef, const Case& sample, const std::string& kernel_name);

}  // namespace ascendopt
