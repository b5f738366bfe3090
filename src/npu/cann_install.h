// Finding the user's CANN toolkit and NPU devices at run time, by the conventions CANN's own
// scripts use (docs/npu.md "What --backend npu looks for"). ascendopt builds and runs without
// CANN; only the npu backend needs it, and it reports every missing piece at once, with the
// paths it looked at, so that one reading tells a user what to install or set.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "util/result.h"

namespace ascendopt {

// The CANN release the npu backend's declarations and command lines follow (docs/npu.md).
inline constexpr const char* k_cann_written_against = "CANN 8.0";

// Reads an environment variable; empty optional when unset. Injected so that tests describe a
// machine without touching the process environment.
using EnvLookup = std::function<std::optional<std::string>(const std::string&)>;
EnvLookup process_environment();

// Where discovery looks besides the environment: the two default install folders the CANN
// installer uses (root, and a user's home) and the device folder.
struct CannSearchPaths {
    std::filesystem::path system_root = "/usr/local/Ascend/ascend-toolkit/latest";
    std::optional<std::filesystem::path> home;  // $HOME: <home>/Ascend/ascend-toolkit/latest
    std::filesystem::path dev = "/dev";  // $ASCENDOPT_NPU_DEV_DIR when set
};
CannSearchPaths default_search_paths(const EnvLookup& env);

// A toolkit that has what the npu backend runs: the ACL runtime, the aclnn tensor library,
// the operator project generator and the kernel compiler. The profiler is optional (--profile).
struct CannInstall {
    std::filesystem::path root;        // the toolkit's version folder (what ASCEND_HOME_PATH names)
    std::string found_by;              // "ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME" or "the default path"
    std::string version;               // from <root>/<arch>-linux/ascend_toolkit_install.info; "" unknown
    std::filesystem::path acl_library;       // lib64/libascendcl.so
    std::filesystem::path nnopbase_library;  // lib64/libnnopbase.so (aclCreateTensor, the aclnn executor)
    std::filesystem::path msopgen;           // the operator project generator
    std::filesystem::path kernel_compiler;   // ccec (or bisheng, its newer name)
    std::optional<std::filesystem::path> msprof;  // the profiler, for --profile
};

// The toolkit named by ASCEND_HOME_PATH, else ASCEND_TOOLKIT_HOME (both set by the toolkit's
// set_env.sh), else the first default install folder that exists. A variable that is set but
// names no folder is an error, not a reason to look elsewhere: the user meant it. The error
// lists everything that was looked for and is missing (Error::missing_tool).
Result<CannInstall> find_cann(const EnvLookup& env, const CannSearchPaths& paths);

// The physical NPU ids a process may use: ASCEND_RT_VISIBLE_DEVICES ("0,2,3") when set, else
// every /dev/davinci<N>. An error when the driver's device files are absent, or the variable is
// not a list of device ids present on the machine.
Result<std::vector<int>> visible_devices(const EnvLookup& env, const std::filesystem::path& dev);

// "0,2, 3" -> {0, 2, 3}; an error naming the bad item otherwise (empty, not a number, repeated).
Result<std::vector<int>> parse_device_list(const std::string& text);

}  // namespace ascendopt
