#include "npu/npu_backend.h"

#include <algorithm>

namespace ascendopt {

std::string id_list(const std::vector<int>& ids) {
    std::string out;
    for (int id : ids) out += (out.empty() ? "" : ", ") + std::to_string(id);
    return out;
}

Result<std::vector<int>> chosen_devices(const NpuMachine& m, const std::optional<std::string>& asked) {
    if (!asked) return m.devices;
    auto ids = parse_device_list(*asked);
    if (!ids) return make_error("--device " + *asked + ": " + ids.error().message, "name NPUs by their ids, as in --device 0,1");
    for (int id : *ids)
        if (std::find(m.devices.begin(), m.devices.end(), id) == m.devices.end())
            return make_error("--device " + *asked + ": NPU " + std::to_string(id) + " is not one this process may use (NPU " +
                                  id_list(m.devices) + ")",
                              "ASCEND_RT_VISIBLE_DEVICES and the driver's /dev/davinci<N> decide which NPUs are visible");
    return *ids;
}

Result<NpuMachine> probe_npu_machine(const EnvLookup& env, const CannSearchPaths& paths, const std::string& soc) {
    auto cann = find_cann(env, paths);
    auto devices = visible_devices(env, paths.dev);
    if (!cann || !devices) {
        // Both findings in one message: a machine without CANN usually lacks the driver too.
        std::vector<const Error*> errors;
        if (!cann) errors.push_back(&cann.error());
        if (!devices) errors.push_back(&devices.error());
        Error e = make_error(errors[0]->message, errors[0]->hint);
        e.missing_tool = errors[0]->missing_tool;
        if (errors.size() == 2) {
            e.message += "; and " + errors[1]->message;
            e.hint += "; " + errors[1]->hint;
            e.missing_tool = e.missing_tool || errors[1]->missing_tool;
        }
        return e;
    }
    auto runtime = AclRuntime::load(cann->acl_library);
    if (!runtime) return runtime.error();
    auto acl = (*runtime)->probe();
    if (!acl) return acl.error();
    if (!acl->soc_name.empty() && acl->soc_name != soc)
        return make_error("the NPU is " + acl->soc_name + ", but the session models " + soc,
                          "pass --soc " + acl->soc_name + " (a SoC description of that chip under share/soc) so that the "
                          "device's results compare with the model's");
    return NpuMachine{*cann, *devices, *acl};
}

std::string describe(const NpuMachine& m) {
    return "CANN " + (m.cann.version.empty() ? std::string("(version unknown)") : m.cann.version) + " at " + m.cann.root.string() +
           " (found by " + m.cann.found_by + "); NPU " + id_list(m.devices) + " (" + m.acl.soc_name + ")";
}

}  // namespace ascendopt
