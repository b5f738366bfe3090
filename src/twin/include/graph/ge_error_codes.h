// CANN's graph/ge_error_codes.h: graphStatus and its codes.
#pragma once

#include "ascendopt_twin/host/ge_types.h"
