// The per-operator part of the invoker (share/include/ascendopt_invoker.h holds the rest): a
// main() that calls the operator's aclnn API with each case's arguments. The same source builds
// against CANN on an NPU machine and against the twin's ACL here (docs/npu.md "The invoker").
#pragma once

#include <string>

#include "npu/aclnn_signature.h"
#include "util/result.h"

namespace ascendopt {

// The source of the invoker's main file; an error for a parameter the invoker cannot pass yet
// (a dynamic output).
Result<std::string> invoker_source(const AclnnSignature& sig);

}  // namespace ascendopt
