// The system workspace: the first bytes of every launch's workspace, which the Ascend C
// libraries (Matmul and other advanced APIs) use, before the operator's own. Host code sizes it
// with PlatformAscendC::GetLibApiWorkSpaceSize() and adds its own bytes; kernels find their part
// with GetUserWorkspace(workspace), the libraries theirs with GetSysWorkSpacePtr().
#pragma once

#include <cstdint>

namespace ascendopt_twin {
constexpr uint32_t k_sys_workspace_bytes = 16u * 1024 * 1024;
}  // namespace ascendopt_twin
