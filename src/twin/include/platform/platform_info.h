// fe::PlatFormInfos, the opaque platform handle passed to PlatformAscendC.
#pragma once

#include "ascendopt_twin/host/platform.h"
