// The Ascend C math library header for Cosh; the twin implements the whole library in one file.
#pragma once

#include "ascendopt_twin/kernel/adv_math.h"
