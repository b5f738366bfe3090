// Ascend C kernel API, as implemented by the ascendopt twin for CPU execution.
// Operators include this header exactly as they do with CANN; see docs/twin.md for the
// supported subset and where the twin's semantics are stricter than the hardware's.
#pragma once

#include "ascendopt_twin/kernel/defs.h"
#include "ascendopt_twin/kernel/tensor.h"
#include "ascendopt_twin/kernel/pipe.h"
#include "ascendopt_twin/kernel/copy.h"
#include "ascendopt_twin/kernel/vec.h"
#include "ascendopt_twin/kernel/vec_math.h"
#include "ascendopt_twin/kernel/vec_cast.h"
#include "ascendopt_twin/kernel/vec_select.h"
#include "ascendopt_twin/kernel/vec_reduce.h"
#include "ascendopt_twin/kernel/sync.h"
#include "ascendopt_twin/kernel/misc.h"
#include "ascendopt_twin/kernel/atomic.h"
#include "ascendopt_twin/kernel/workspace.h"
#include "ascendopt_twin/kernel/list_tensor.h"
#include "ascendopt_twin/kernel/internal_impl.h"
#include "ascendopt_twin/kernel/adv_math.h"
#include "ascendopt_twin/kernel/scalar_utils.h"
#include "ascendopt_twin/kernel/rearrange.h"
#include "ascendopt_twin/kernel/broadcast.h"
#include "ascendopt_twin/kernel/adv_softmax.h"
#include "ascendopt_twin/kernel/adv_sort.h"
#include "ascendopt_twin/kernel/adv_quant.h"
#include "ascendopt_twin/kernel/adv_reduce.h"
#include "ascendopt_twin/kernel/adv_select.h"
