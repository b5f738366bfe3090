// Same as lib/matmul_intf.h (the path some operators include).
#pragma once

#include "lib/matmul_intf.h"
