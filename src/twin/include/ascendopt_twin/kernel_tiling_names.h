// Force-included into kernel builds after the operator's tiling header: CANN generates the
// kernel-side tiling structs at global scope, so kernels may name them unqualified.
#pragma once

namespace optiling {}
using namespace optiling;
