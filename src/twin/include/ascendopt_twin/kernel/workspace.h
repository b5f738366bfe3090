// The launch's workspace as kernels see it: the system part first (for the Ascend C
// libraries), then the operator's own (ascendopt_twin/sys_workspace.h).
#pragma once

#include "ascendopt_twin/attrs.h"

#include "ascendopt_twin/kernel/defs.h"
#include "ascendopt_twin/runtime_gm.h"
#include "ascendopt_twin/sys_workspace.h"

namespace AscendC {

// Bytes of the system part (the size host code learns from GetLibApiWorkSpaceSize).
constexpr uint32_t RESERVED_WORKSPACE = ascendopt_twin::k_sys_workspace_bytes;

// The operator's part of `workspace` (the whole workspace the kernel received).
ASCENDOPT_TWIN_FN inline GM_ADDR GetUserWorkspace(GM_ADDR workspace) {
    return workspace == nullptr ? nullptr : workspace + ascendopt_twin::k_sys_workspace_bytes;
}
ASCENDOPT_TWIN_FN inline void SetSysWorkspace(GM_ADDR workspace) { ascendopt_twin::set_sys_workspace(workspace); }
ASCENDOPT_TWIN_FN inline __gm__ uint8_t* GetSysWorkSpacePtr() { return ascendopt_twin::sys_workspace(); }

}  // namespace AscendC

using AscendC::GetSysWorkSpacePtr;
using AscendC::GetUserWorkspace;
using AscendC::SetSysWorkspace;
