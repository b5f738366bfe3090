// gert:: types of CANN's runtime as host code uses them: shapes and tensors (gert_shape.h),
// attributes (gert_attrs.h) and the contexts of tiling, tiling parse and inference
// (gert_context.h).
#pragma once

#include "ascendopt_twin/host/gert_attrs.h"
#include "ascendopt_twin/host/gert_context.h"
#include "ascendopt_twin/host/gert_shape.h"
