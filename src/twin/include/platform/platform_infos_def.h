// CANN's platform/platform_infos_def.h: fe::PlatFormInfos.
#pragma once

#include "ascendopt_twin/host/platform.h"
#include "ascendopt_twin/host/cann_std_names.h"
