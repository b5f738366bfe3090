// What `--backend npu` needs before it evaluates anything, checked in one pass: the CANN
// toolkit, the NPU devices, and the ACL runtime's view of them. A failure lists every missing
// piece at once (docs/npu.md "What --backend npu looks for").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "npu/acl_runtime.h"
#include "npu/cann_install.h"

namespace ascendopt {

struct NpuMachine {
    CannInstall cann;
    std::vector<int> devices;  // the physical ids this process may use
    AclMachine acl;
};

// The toolkit and the devices, then the runtime loaded from the toolkit; `soc` is the SoC the
// session models, which the device must be (timings of another chip would not compare).
Result<NpuMachine> probe_npu_machine(const EnvLookup& env, const CannSearchPaths& paths, const std::string& soc);

// The devices a session runs on: every one the machine lets this process use, or those `asked`
// names (--device "0,2"), each of which must be among them.
Result<std::vector<int>> chosen_devices(const NpuMachine& m, const std::optional<std::string>& asked);

// "0, 2, 3".
std::string id_list(const std::vector<int>& ids);

// One line for the user: "CANN 8.0.RC3 at /usr/local/...; NPUs 0, 1 (Ascend910B2)".
std::string describe(const NpuMachine& m);

}  // namespace ascendopt
