// CANN's platform/platform_infos_def.h: fe::PlatFormInfos.
#pragma once

#include "ascendopt_twin/host/platform.h"
