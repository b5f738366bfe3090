// CANN's exe_graph/runtime/continuous_vector.h: the gert runtime types, which the twin declares together.
#pragma once

#include "ascendopt_twin/host/gert.h"
