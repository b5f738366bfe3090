// CANN's kernel_operator_intf.h: part of the Ascend C kernel API, which the twin declares in kernel_operator.h.
#pragma once

#include "kernel_operator.h"
