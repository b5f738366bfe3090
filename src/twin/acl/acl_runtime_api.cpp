// The ACL runtime API on the twin (libascendcl.so of the twin toolkit, docs/npu.md "The twin
// behind ACL"): the public C entry points, each checking its arguments as the reference
// describes and recording a message for aclGetRecentErrMsg on failure.
#include <cstdio>
#include <cstring>

#include "acl/acl.h"
#include "acl_state.h"
#include "ascendopt_twin/acl_device.h"

using namespace ascendopt_twin::acl;

namespace {

using Lock = std::lock_guard<std::mutex>;

std::string hex(const void* p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%p", p);
    return buf;
}

// The current thread's device, or an error code (with its message) when there is none.
aclError current(State& s, Device*& out, const char* api) {
    if (!s.initialized) return fail(ACL_ERROR_UNINITIALIZE, std::string(api) + ": aclInit has not been called");
    out = s.device(current_device());
    if (!out || out->opened == 0)
        return fail(ACL_ERROR_RT_CONTEXT_NULL, std::string(api) + ": no device is set on this thread; call aclrtSetDevice first");
    return ACL_SUCCESS;
}

// `stream` as a live stream of the current device (null: its default stream).
aclError stream_of(State& s, aclrtStream stream, Stream*& out, const char* api) {
    Device* d = nullptr;
    if (aclError rc = current(s, d, api)) return rc;
    if (!stream) {
        out = &d->default_stream;
        return ACL_SUCCESS;
    }
    auto* st = static_cast<Stream*>(stream);
    if (!d->streams.count(st))
        return fail(ACL_ERROR_INVALID_PARAM, std::string(api) + ": " + hex(stream) + " is not a stream of the current device");
    out = st;
    return ACL_SUCCESS;
}

aclError event_of(State& s, aclrtEvent event, Event*& out, const char* api) {
    Device* d = nullptr;
    if (aclError rc = current(s, d, api)) return rc;
    auto* ev = static_cast<Event*>(event);
    if (!event || !d->events.count(ev))
        return fail(ACL_ERROR_INVALID_PARAM, std::string(api) + ": " + hex(event) + " is not an event of the current device");
    out = ev;
    return ACL_SUCCESS;
}

// Checks that [p, p + bytes) is where `kind` says it is: inside one device allocation of the
// current device for a device side, outside every device allocation for a host side.
aclError check_side(Device& d, const void* p, size_t bytes, bool device_side, const char* role) {
    if (!p) return fail(ACL_ERROR_INVALID_PARAM, std::string("aclrtMemcpy: the ") + role + " is null");
    if (device_side) {
        if (d.heap->holding(p, bytes)) return ACL_SUCCESS;
        const DeviceAllocation* a = d.heap->around(p);
        return fail(ACL_ERROR_INVALID_PARAM,
                    std::string("aclrtMemcpy: the ") + role + " " + hex(p) + " + " + std::to_string(bytes) + " bytes is not inside a device allocation" +
                        (a ? " (the allocation at " + hex(a->start) + " has " + std::to_string(a->usable) + " usable bytes)" : ""));
    }
    if (d.heap->around(p))
        return fail(ACL_ERROR_INVALID_PARAM, std::string("aclrtMemcpy: the ") + role + " " + hex(p) + " is device memory, but the copy kind says host");
    return ACL_SUCCESS;
}

// Runs `body(device)` under the lock for the calling thread's current device, or returns
// why there is none.
template <class Body>
aclError on_device(const char* api, Body body) {
    State& s = state();
    Lock lock(s.mutex);
    Device* d = nullptr;
    if (aclError rc = current(s, d, api)) return rc;
    return body(*d);
}

void release_device(Device& d) {
    for (Stream* st : d.streams) delete st;
    for (Event* ev : d.events) delete ev;
    d.streams.clear();
    d.events.clear();
    d.heap.reset();
    d.default_stream = Stream{};
}

}  // namespace

extern "C" {

size_t aclDataTypeSize(aclDataType t) {
    switch (t) {
        case ACL_BOOL: case ACL_INT8: case ACL_UINT8: return 1;
        case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: case ACL_UINT16: return 2;
        case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: return 4;
        case ACL_INT64: case ACL_UINT64: case ACL_DOUBLE: case ACL_COMPLEX64: return 8;
        case ACL_COMPLEX128: return 16;
        default: return 0;
    }
}

const char* aclGetRecentErrMsg() { return recent_error().c_str(); }

aclError aclInit(const char* configPath) {
    State& s = state();
    Lock lock(s.mutex);
    if (s.initialized) return fail(ACL_ERROR_REPEAT_INITIALIZE, "aclInit: already initialized in this process");
    if (configPath && *configPath) {
        if (FILE* f = std::fopen(configPath, "r")) std::fclose(f);
        else return fail(ACL_ERROR_INVALID_PARAM, std::string("aclInit: cannot read the configuration file ") + configPath);
    }
    Settings settings;
    std::string why;
    if (!read_settings(settings, why)) return fail(ACL_ERROR_INVALID_PARAM, "aclInit: " + why);
    s.devices = std::vector<Device>(size_t(settings.devices));
    s.soc_name = settings.soc_name;
    s.memory_bytes = settings.memory_bytes;
    s.initialized = true;
    return ACL_SUCCESS;
}

aclError aclFinalize() {
    State& s = state();
    Lock lock(s.mutex);
    if (!s.initialized) return fail(ACL_ERROR_UNINITIALIZE, "aclFinalize: aclInit has not been called");
    for (Device& d : s.devices) release_device(d);
    s.devices.clear();
    s.initialized = false;
    current_device() = -1;
    return ACL_SUCCESS;
}

aclError aclrtGetDeviceCount(uint32_t* count) {
    State& s = state();
    Lock lock(s.mutex);
    if (!s.initialized) return fail(ACL_ERROR_UNINITIALIZE, "aclrtGetDeviceCount: aclInit has not been called");
    if (!count) return fail(ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCount: count is null");
    *count = uint32_t(s.devices.size());
    return ACL_SUCCESS;
}

const char* aclrtGetSocName() {
    State& s = state();
    Lock lock(s.mutex);
    return s.initialized ? s.soc_name.c_str() : nullptr;
}

aclError aclrtSetDevice(int32_t deviceId) {
    State& s = state();
    Lock lock(s.mutex);
    if (!s.initialized) return fail(ACL_ERROR_UNINITIALIZE, "aclrtSetDevice: aclInit has not been called");
    Device* d = s.device(deviceId);
    if (!d)
        return fail(ACL_ERROR_RT_INVALID_DEVICEID, "aclrtSetDevice: device " + std::to_string(deviceId) + " does not exist (this process sees " +
                                                       std::to_string(s.devices.size()) + ")");
    if (!d->heap) d->heap = std::make_unique<DeviceHeap>(s.memory_bytes);
    ++d->opened;
    current_device() = deviceId;
    return ACL_SUCCESS;
}

aclError aclrtResetDevice(int32_t deviceId) {
    State& s = state();
    Lock lock(s.mutex);
    if (!s.initialized) return fail(ACL_ERROR_UNINITIALIZE, "aclrtResetDevice: aclInit has not been called");
    Device* d = s.device(deviceId);
    if (!d || d->opened == 0)
        return fail(ACL_ERROR_RT_INVALID_DEVICEID, "aclrtResetDevice: device " + std::to_string(deviceId) + " is not set in this process");
    if (--d->opened == 0) {
        // The device's resources go with its last reference, as on the device; its memory is
        // mapped afresh if it is set again.
        release_device(*d);
        if (current_device() == deviceId) current_device() = -1;
    }
    return ACL_SUCCESS;
}

aclError aclrtGetDevice(int32_t* deviceId) {
    return on_device("aclrtGetDevice", [&](Device& d) {
        if (!deviceId) return fail(ACL_ERROR_INVALID_PARAM, "aclrtGetDevice: deviceId is null");
        *deviceId = current_device();
        return ACL_SUCCESS;
    });
}

aclError aclrtCreateStream(aclrtStream* stream) {
    return on_device("aclrtCreateStream", [&](Device& d) {
        if (!stream) return fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateStream: stream is null");
        auto* st = new Stream{current_device(), 0};
        d.streams.insert(st);
        *stream = st;
        return ACL_SUCCESS;
    });
}

aclError aclrtDestroyStream(aclrtStream stream) {
    State& s = state();
    Lock lock(s.mutex);
    Stream* st = nullptr;
    if (!stream) return fail(ACL_ERROR_INVALID_PARAM, "aclrtDestroyStream: stream is null");
    if (aclError rc = stream_of(s, stream, st, "aclrtDestroyStream")) return rc;
    s.device(st->device)->streams.erase(st);
    delete st;
    return ACL_SUCCESS;
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
    State& s = state();
    Lock lock(s.mutex);
    Stream* st = nullptr;
    return stream_of(s, stream, st, "aclrtSynchronizeStream");  // tasks run when issued: nothing to wait for
}

aclError aclrtCreateEvent(aclrtEvent* event) {
    return on_device("aclrtCreateEvent", [&](Device& d) {
        if (!event) return fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateEvent: event is null");
        auto* ev = new Event{current_device(), false, 0};
        d.events.insert(ev);
        *event = ev;
        return ACL_SUCCESS;
    });
}

aclError aclrtDestroyEvent(aclrtEvent event) {
    State& s = state();
    Lock lock(s.mutex);
    Event* ev = nullptr;
    if (aclError rc = event_of(s, event, ev, "aclrtDestroyEvent")) return rc;
    s.device(ev->device)->events.erase(ev);
    delete ev;
    return ACL_SUCCESS;
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
    State& s = state();
    Lock lock(s.mutex);
    Event* ev = nullptr;
    Stream* st = nullptr;
    if (aclError rc = event_of(s, event, ev, "aclrtRecordEvent")) return rc;
    if (aclError rc = stream_of(s, stream, st, "aclrtRecordEvent")) return rc;
    ev->recorded = true;
    ev->at_ns = st->clock_ns;
    return ACL_SUCCESS;
}

aclError aclrtSynchronizeEvent(aclrtEvent event) {
    State& s = state();
    Lock lock(s.mutex);
    Event* ev = nullptr;
    return event_of(s, event, ev, "aclrtSynchronizeEvent");
}

aclError aclrtEventElapsedTime(float* ms, aclrtEvent startEvent, aclrtEvent endEvent) {
    State& s = state();
    Lock lock(s.mutex);
    Event *start = nullptr, *end = nullptr;
    if (aclError rc = event_of(s, startEvent, start, "aclrtEventElapsedTime")) return rc;
    if (aclError rc = event_of(s, endEvent, end, "aclrtEventElapsedTime")) return rc;
    if (!ms) return fail(ACL_ERROR_INVALID_PARAM, "aclrtEventElapsedTime: ms is null");
    if (!start->recorded || !end->recorded)
        return fail(ACL_ERROR_INVALID_PARAM, "aclrtEventElapsedTime: the " + std::string(start->recorded ? "end" : "start") +
                                                 " event has not been recorded");
    *ms = float((double(end->at_ns) - double(start->at_ns)) / 1e6);
    return ACL_SUCCESS;
}

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
    return on_device("aclrtMalloc", [&](Device& d) {
        if (!devPtr) return fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: devPtr is null");
        if (size == 0) return fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: size is 0");
        if (policy < ACL_MEM_MALLOC_HUGE_FIRST || policy > ACL_MEM_MALLOC_NORMAL_ONLY)
            return fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: unknown policy " + std::to_string(int(policy)));
        std::string why;
        void* p = d.heap->allocate(size, why);
        if (!p) return fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtMalloc: " + why);
        *devPtr = p;
        return ACL_SUCCESS;
    });
}

aclError aclrtFree(void* devPtr) {
    return on_device("aclrtFree", [&](Device& d) {
        if (!devPtr) return fail(ACL_ERROR_INVALID_PARAM, "aclrtFree: devPtr is null");
        if (!d.heap->release(devPtr))
            return fail(ACL_ERROR_RT_MEMORY_FREE, "aclrtFree: " + hex(devPtr) + " is not the start of a live device allocation");
        return ACL_SUCCESS;
    });
}

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind) {
    return on_device("aclrtMemcpy", [&](Device& d) {
        if (kind < ACL_MEMCPY_HOST_TO_HOST || kind > ACL_MEMCPY_DEVICE_TO_DEVICE)
            return fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy: unknown copy kind " + std::to_string(int(kind)));
        if (count > destMax)
            return fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy: count " + std::to_string(count) + " exceeds destMax " + std::to_string(destMax));
        if (count == 0) return ACL_SUCCESS;
        const bool dst_device = kind == ACL_MEMCPY_HOST_TO_DEVICE || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
        const bool src_device = kind == ACL_MEMCPY_DEVICE_TO_HOST || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
        if (aclError rc = check_side(d, dst, count, dst_device, "destination")) return rc;
        if (aclError rc = check_side(d, src, count, src_device, "source")) return rc;
        std::memmove(dst, src, count);
        return ACL_SUCCESS;
    });
}

aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
    return on_device("aclrtMemset", [&](Device& d) {
        if (count > maxCount)
            return fail(ACL_ERROR_INVALID_PARAM, "aclrtMemset: count " + std::to_string(count) + " exceeds maxCount " + std::to_string(maxCount));
        if (!devPtr || !d.heap->holding(devPtr, count))
            return fail(ACL_ERROR_INVALID_PARAM, "aclrtMemset: " + hex(devPtr) + " + " + std::to_string(count) + " bytes is not inside a device allocation");
        std::memset(devPtr, value & 0xFF, count);
        return ACL_SUCCESS;
    });
}

aclError ascendopt_twin_acl_charge(aclrtStream stream, uint64_t ns) {
    State& s = state();
    Lock lock(s.mutex);
    Stream* st = nullptr;
    if (aclError rc = stream_of(s, stream, st, "launch")) return rc;
    st->clock_ns += ns;
    return ACL_SUCCESS;
}

aclError ascendopt_twin_acl_allocation(const void* ptr, size_t bytes, void** start, size_t* usable) {
    return on_device("launch", [&](Device& d) {
        const DeviceAllocation* a = d.heap->holding(ptr, bytes);
        if (!a) return fail(ACL_ERROR_INVALID_PARAM, "launch: " + hex(ptr) + " + " + std::to_string(bytes) + " bytes is not inside a device allocation");
        if (start) *start = a->start;
        if (usable) *usable = a->usable;
        return ACL_SUCCESS;
    });
}

aclError ascendopt_twin_acl_fail(aclError code, const char* message) { return fail(code, message ? message : ""); }

void ascendopt_twin_acl_case(const char* name, int run) {
    State& s = state();
    Lock lock(s.mutex);
    s.current_case = name ? name : "";
    s.current_run = run;
}

const char* ascendopt_twin_acl_current_case(int* run) {
    State& s = state();
    Lock lock(s.mutex);
    if (run) *run = s.current_run;
    return s.current_case.c_str();
}

}  // extern "C"
