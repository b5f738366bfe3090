// The twin ACL runtime's process state: which devices this process has opened, their memory,
// streams and events, and each thread's current device and last error. One mutex guards it;
// every entry point takes it for its whole call (the twin runs each call to completion).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "acl/acl_base.h"
#include "device_heap.h"

namespace ascendopt_twin::acl {

// A stream's modeled device clock: the device time of the last task it ran, in ns. The twin
// runs a task when it is issued, so a stream is always idle when the host looks at it.
struct Stream {
    int device = 0;
    uint64_t clock_ns = 0;
};

struct Event {
    int device = 0;
    bool recorded = false;
    uint64_t at_ns = 0;
};

struct Device {
    int opened = 0;  // aclrtSetDevice calls not yet matched by aclrtResetDevice
    std::unique_ptr<DeviceHeap> heap;
    Stream default_stream;
    std::set<Stream*> streams;
    std::set<Event*> events;
};

struct State {
    std::mutex mutex;
    bool initialized = false;
    std::string soc_name;
    uint64_t memory_bytes = 0;  // per device
    std::string current_case;   // the invoker's announcement (ascendopt_twin_acl_case)
    int current_run = -1;
    std::vector<Device> devices;
    Device* device(int id) { return id >= 0 && id < int(devices.size()) ? &devices[size_t(id)] : nullptr; }
};

State& state();

// Each thread's current device (-1: none set) and the message of its last failed call.
int& current_device();
std::string& recent_error();

// Records `message` as this thread's recent error (aclGetRecentErrMsg) and returns `code`.
aclError fail(aclError code, const std::string& message);

// The settings aclInit reads from the environment: ASCENDOPT_TWIN_ACL_DEVICES (default 1),
// ASCENDOPT_TWIN_ACL_MEMORY (bytes per device; default 64 GiB, the 910B2's HBM) and
// ASCENDOPT_TWIN_SOC (default Ascend910B2). False with the reason on a malformed value.
struct Settings {
    int devices = 1;
    uint64_t memory_bytes = uint64_t(64) << 30;
    std::string soc_name = "Ascend910B2";
};
bool read_settings(Settings& out, std::string& why);

}  // namespace ascendopt_twin::acl
