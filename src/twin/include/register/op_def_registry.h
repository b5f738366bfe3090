// Host-side operator registration: OpDef, OP_ADD, the gert contexts and ge types.
#pragma once

#include "ascendopt_twin/host/ge_types.h"
#include "ascendopt_twin/host/gert.h"
#include "ascendopt_twin/host/op_def.h"
#include "ascendopt_twin/host/platform.h"
#include "register/tilingdata_base.h"
