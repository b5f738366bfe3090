// CANN's aclnn/opdev/op_log.h: the operator API's logging macros (opdev/op_log.h).
#pragma once

#include "opdev/op_log.h"
