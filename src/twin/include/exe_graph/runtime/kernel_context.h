// CANN's exe_graph/runtime/kernel_context.h: the gert runtime types, which the twin declares together.
#pragma once

#include "ascendopt_twin/host/gert.h"
