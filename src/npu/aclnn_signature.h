// The two-phase aclnn API the CANN package build generates for a custom operator, derived from
// the operator's OpDef: `aclnn<Op>GetWorkspaceSize(inputs..., attributes..., outputs...,
// uint64_t* workspaceSize, aclOpExecutor** executor)` and `aclnn<Op>(void* workspace, uint64_t
// workspaceSize, aclOpExecutor* executor, aclrtStream stream)`, declared in
// `aclnn_<op_snake_case>.h`. The invoker calls it; on the twin, ascendopt generates its
// definition. Written from the convention of CANN 8.0's generated headers and published
// invocation examples; not yet checked against a generated header on a CANN machine.
#pragma once

#include <string>
#include <vector>

#include "core/dtype.h"
#include "eval/opdef.h"
#include "util/result.h"

namespace ascendopt {

struct AclnnParam {
    enum class Role { input, attr, output };
    Role role = Role::input;
    std::string opdef_name;  // as the OpDef names it
    std::string name;        // as the header names it: "Optional" / "Ref" suffixes
    std::string c_type;      // "const aclTensor *", "int64_t", "const aclIntArray *", ...
    bool optional = false;   // an optional input (null when absent) or an attribute with a default
    bool dynamic = false;    // a list of tensors
    bool in_place = false;   // an input the operator also writes (same name among the outputs)
    std::string attr_kind;   // for attributes: the OpDef kind ("int", "list_float", ...)
};

struct AclnnSignature {
    std::string op_type;    // "AddCustom"
    std::string function;   // "aclnnAddCustom"
    std::string header;     // "aclnn_add_custom.h"
    std::vector<AclnnParam> params;  // in call order, before workspaceSize and executor
};

// "AddCustom" -> "add_custom", "IsAMax" -> "is_a_max" (each capital starts a word).
std::string op_snake_case(const std::string& op_type);

// The signature of `op`'s aclnn API; an error names an attribute kind the convention has no
// C type for.
Result<AclnnSignature> aclnn_signature(const OpDefInfo& op);

// The header text declaring both functions (the aclnn types come from aclnn/acl_meta.h).
std::string aclnn_header(const AclnnSignature& sig);

// The ACL data type code of an element type (aclDataType), the same on CANN and the twin.
int acl_data_type(DType t);

}  // namespace ascendopt
