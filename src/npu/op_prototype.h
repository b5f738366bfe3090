// The operator prototype msopgen generates a custom-operator project from (the toolchain's
// "generate the custom-operator project" step reads it as op.json), written from the OpDef the
// candidate's host code registers: inputs and outputs with every supported dtype combination as
// a column of their "type" lists, and attributes with their defaults. The field names and
// values follow msopgen's prototype-definition file as CANN 8.0 documents it.
#pragma once

#include <nlohmann/json.hpp>

#include "eval/opdef.h"
#include "util/result.h"

namespace ascendopt {

// The prototype file's document (a list of one operator). Columns ascendopt cannot represent
// (OpDefInfo::unsupported_columns) are left out; an error when none is left, or an attribute
// kind has no prototype type.
Result<nlohmann::json> op_prototype(const OpDefInfo& op);

}  // namespace ascendopt
