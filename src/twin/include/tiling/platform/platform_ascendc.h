// platform_ascendc::PlatformAscendC: core counts and memory sizes of the target SoC.
#pragma once

#include "ascendopt_twin/host/platform.h"
#include "ascendopt_twin/host/cann_std_names.h"
