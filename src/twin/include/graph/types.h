// CANN's graph/types.h: ge data types, formats and shapes.
#pragma once

#include "ascendopt_twin/host/ge_types.h"
