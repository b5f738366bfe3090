// The twin behind aclnn (docs/npu.md "The twin behind aclnn"): what the generated
// `aclnn<Op>GetWorkspaceSize` and `aclnn<Op>` of an operator call on the twin. The device is
// ascendopt itself: a launch writes the call's device tensors to files, asks ascendopt over the
// package's request channel to run the case's kernel in the operator binary (the same process,
// sandbox and checks as the twin backend), and copies what it wrote back into device memory,
// charging the model's latency to the stream. The tiling is the plan ascendopt computed for the
// case the invoker announced (ascendopt_twin_acl_case); the call must match that case's tensors
// and attributes.
//
// The package file (ASCENDOPT_TWIN_PACKAGE, written by ascendopt):
//   {"op": TYPE, "request": FIFO, "reply": FIFO, "scratch": DIR,
//    "cases": {NAME: {"workspace_bytes": N, "attrs": {...},
//                     "tensors": {LABEL: {"acl_dtype": CODE, "shape": [...], "input": BOOL, "output": BOOL}}}}}
// LABEL is a parameter's name, or name[i] for element i of a dynamic list.
// Request line: "launch CASE RUN DIR"; reply line: "done". DIR then holds in_<LABEL>.bin
// (written here), and out_<LABEL>.bin and result.json (the operator binary's result document),
// with '[' and ']' of a label written as '_'.
#pragma once

#include <string>
#include <vector>

#include "aclnn/acl_meta.h"

namespace ascendopt_twin::aclnn {

// One parameter of the call as the generated entry passes it.
struct Arg {
    enum class Role { input, output };
    std::string name;  // the OpDef's
    Role role = Role::input;
    const aclTensor* tensor = nullptr;     // a plain parameter (null: absent)
    const aclTensorList* list = nullptr;   // a dynamic one
    bool is_list = false;
};

// An attribute as the generated entry passes it: its name and its value as JSON text.
struct AttrArg {
    std::string name;
    std::string json;
};

aclnnStatus get_workspace(const char* op_type, const std::vector<Arg>& args, const std::vector<AttrArg>& attrs, uint64_t* workspace_size,
                          aclOpExecutor** executor);
aclnnStatus launch(void* workspace, uint64_t workspace_size, aclOpExecutor* executor, aclrtStream stream);

// JSON text of attribute values, for the generated entries.
std::string json_of(int64_t v);
std::string json_of(double v);
std::string json_of(bool v);
std::string json_of(const char* v);  // null: "null"
std::string json_of(const aclIntArray* v);
std::string json_of(const aclFloatArray* v);
std::string json_of(const aclBoolArray* v);

}  // namespace ascendopt_twin::aclnn
