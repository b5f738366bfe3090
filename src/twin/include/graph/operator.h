// CANN's graph/operator.h: ge::Operator and the tensors of the graph API.
#pragma once

#include "ascendopt_twin/host/ge_graph.h"
