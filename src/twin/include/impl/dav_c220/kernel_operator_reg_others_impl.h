// CANN's impl/dav_c220/kernel_operator_reg_others_impl.h: part of the Ascend C kernel API, which the twin declares in kernel_operator.h.
#pragma once

#include "kernel_operator.h"
