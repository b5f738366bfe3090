// The few ACL runtime functions ascendopt itself calls (to see the devices and the chip before
// it builds anything), loaded with dlopen so that ascendopt builds and runs without CANN. The
// declarations are ours, written from the public ACL API reference (docs/npu.md); the invoker
// program, which runs the operators, links the runtime the usual way.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "util/result.h"

namespace ascendopt {

// What the runtime reports about the machine.
struct AclMachine {
    uint32_t device_count = 0;
    std::string soc_name;  // aclrtGetSocName: "Ascend910B2"
};

class AclRuntime {
public:
    // Loads `library` (libascendcl.so) and resolves every function below; an error names the
    // library's dlopen message or every symbol it lacks.
    static Result<std::unique_ptr<AclRuntime>> load(const std::filesystem::path& library);
    ~AclRuntime();
    AclRuntime(const AclRuntime&) = delete;
    AclRuntime& operator=(const AclRuntime&) = delete;

    // aclInit, aclrtGetDeviceCount, aclrtGetSocName, aclFinalize: an error carries the ACL error
    // code and the runtime's own message (aclGetRecentErrMsg).
    Result<AclMachine> probe();

private:
    struct Api;
    AclRuntime(void* handle, std::unique_ptr<Api> api);
    std::string recent_message() const;
    void* m_handle;
    std::unique_ptr<Api> m_api;
};

// "ACL error 100000 (ACL_ERROR_INVALID_PARAM)" for the codes the public reference lists.
std::string acl_error_text(int code);

}  // namespace ascendopt
