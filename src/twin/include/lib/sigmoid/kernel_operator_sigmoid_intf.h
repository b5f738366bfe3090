// The Ascend C activation header for Sigmoid; the twin implements it with the math library.
#pragma once

#include "ascendopt_twin/kernel/adv_math.h"
