// The twin's definition of an operator's aclnn API (the CANN package build generates the real
// one): each function forwards the call to ascendopt_twin/twin_aclnn.h, naming every tensor
// parameter and giving every attribute's value (docs/npu.md "The twin behind aclnn").
#pragma once

#include <string>

#include "npu/aclnn_signature.h"

namespace ascendopt {

std::string twin_aclnn_source(const AclnnSignature& sig);

}  // namespace ascendopt
