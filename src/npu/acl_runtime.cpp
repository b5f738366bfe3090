#include "npu/acl_runtime.h"

#include "npu/cann_install.h"

#include <dlfcn.h>

#include <map>
#include <vector>

namespace ascendopt {

namespace {

// Our declarations of the ACL C API ascendopt calls (aclError is an int; 0 is ACL_SUCCESS).
using AclInit = int (*)(const char* config_path);
using AclFinalize = int (*)();
using AclrtGetDeviceCount = int (*)(uint32_t* count);
using AclrtGetSocName = const char* (*)();
using AclGetRecentErrMsg = const char* (*)();

constexpr int k_acl_success = 0;
constexpr int k_acl_repeat_initialize = 100002;  // aclInit called before in this process: not a failure

}  // namespace

struct AclRuntime::Api {
    AclInit init = nullptr;
    AclFinalize finalize = nullptr;
    AclrtGetDeviceCount device_count = nullptr;
    AclrtGetSocName soc_name = nullptr;
    AclGetRecentErrMsg recent_error = nullptr;
};

std::string acl_error_text(int code) {
    static const std::map<int, const char*> names = {
        {100000, "ACL_ERROR_INVALID_PARAM"},        {100001, "ACL_ERROR_UNINITIALIZE"},
        {100002, "ACL_ERROR_REPEAT_INITIALIZE"},    {200000, "ACL_ERROR_BAD_ALLOC"},
        {200001, "ACL_ERROR_API_NOT_SUPPORT"},      {200002, "ACL_ERROR_INVALID_DEVICE"},
        {500000, "ACL_ERROR_INTERNAL_ERROR"},       {500001, "ACL_ERROR_FAILURE"},
        {500003, "ACL_ERROR_RT_FAILURE"},           {500004, "ACL_ERROR_DRV_FAILURE"},
        {107001, "ACL_ERROR_RT_INVALID_DEVICEID"},  {507033, "ACL_ERROR_RT_DEV_SETUP_ERROR"},
        {161001, "ACLNN_ERR_PARAM_NULLPTR"},        {161002, "ACLNN_ERR_PARAM_INVALID"},
        {361001, "ACLNN_ERR_RUNTIME_ERROR"},        {561000, "ACLNN_ERR_INNER"},
    };
    const auto it = names.find(code);
    return "ACL error " + std::to_string(code) + (it == names.end() ? "" : " (" + std::string(it->second) + ")");
}

Result<std::unique_ptr<AclRuntime>> AclRuntime::load(const std::filesystem::path& library) {
    dlerror();
    // RTLD_NODELETE: once loaded, the runtime stays mapped for the life of the process. It keeps
    // thread-local state (and, in CANN, threads of its own) that outlive aclFinalize; unmapping it
    // under them left LeakSanitizer's exit scan reading the unloaded module's TLS (a CI run crashed
    // there once). The library is loaded once per process, so nothing accumulates.
    void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!handle) {
        const char* why = dlerror();
        Error e = make_error("cannot load the ACL runtime " + library.string() + ": " + (why ? why : "unknown dlopen failure"),
                             "source the toolkit's set_env.sh so that the libraries it depends on (the driver's among them) are found");
        e.missing_tool = true;
        return e;
    }
    auto api = std::make_unique<Api>();
    std::vector<std::string> missing;
    auto resolve = [&](auto& fn, const char* name) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(handle, name));
        if (!fn) missing.push_back(name);
    };
    resolve(api->init, "aclInit");
    resolve(api->finalize, "aclFinalize");
    resolve(api->device_count, "aclrtGetDeviceCount");
    resolve(api->soc_name, "aclrtGetSocName");
    resolve(api->recent_error, "aclGetRecentErrMsg");
    if (!missing.empty()) {
        dlclose(handle);
        std::string names;
        for (const auto& m : missing) names += (names.empty() ? "" : ", ") + m;
        Error e = make_error(library.string() + " is not the ACL runtime ascendopt knows: it lacks " + names,
                             "ascendopt's npu backend is written against the ACL API of " + std::string(k_cann_written_against) +
                                 "; point ASCEND_HOME_PATH at such a toolkit");
        e.missing_tool = true;
        return e;
    }
    return std::unique_ptr<AclRuntime>(new AclRuntime(handle, std::move(api)));
}

AclRuntime::AclRuntime(void* handle, std::unique_ptr<Api> api) : m_handle(handle), m_api(std::move(api)) {}

AclRuntime::~AclRuntime() {
    if (m_handle) dlclose(m_handle);
}

std::string AclRuntime::recent_message() const {
    const char* m = m_api->recent_error();
    return m && *m ? std::string(": ") + m : std::string();
}

Result<AclMachine> AclRuntime::probe() {
    if (const int rc = m_api->init(nullptr); rc != k_acl_success && rc != k_acl_repeat_initialize)
        return make_error("aclInit failed with " + acl_error_text(rc) + recent_message(),
                          "check that the driver is installed and `npu-smi info` lists the devices");
    AclMachine m;
    const int rc = m_api->device_count(&m.device_count);
    const char* soc = m_api->soc_name();
    if (soc) m.soc_name = soc;
    const std::string why = rc == k_acl_success ? "" : recent_message();
    m_api->finalize();
    if (rc != k_acl_success) return make_error("aclrtGetDeviceCount failed with " + acl_error_text(rc) + why);
    if (m.device_count == 0) return make_error("the ACL runtime sees no NPU", "check `npu-smi info` and ASCEND_RT_VISIBLE_DEVICES");
    return m;
}

}  // namespace ascendopt
