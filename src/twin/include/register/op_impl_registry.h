// Registration of an operator's host functions apart from its OpDef (IMPL_OP, IMPL_OP_OPTILING,
// IMPL_OP_INFERSHAPE), with the gert contexts they take.
#pragma once

#include "ascendopt_twin/host/gert.h"
#include "ascendopt_twin/host/op_def.h"
