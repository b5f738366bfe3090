// One twin device's memory as aclrtMalloc hands it out: each allocation gets the size the
// runtime documents, ALIGN_UP(size, 32) + 32 bytes, starting 64-byte aligned (docs/twin.md
// "Device memory"), reads 0xFF until written (device memory is not cleared), and is followed by
// an inaccessible page, so that a kernel running past what the runtime gave faults at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

namespace ascendopt_twin::acl {

struct DeviceAllocation {
    uint8_t* start = nullptr;
    size_t requested = 0;  // what aclrtMalloc was asked for
    size_t usable = 0;     // ALIGN_UP(requested, 32) + 32: what the program may touch
    size_t mapped = 0;     // usable rounded up to pages, the guard page excluded
};

// The usable size the runtime gives a request of `size` bytes.
size_t usable_size(size_t size);

class DeviceHeap {
public:
    explicit DeviceHeap(uint64_t capacity_bytes) : m_capacity(capacity_bytes) {}
    ~DeviceHeap();
    DeviceHeap(const DeviceHeap&) = delete;
    DeviceHeap& operator=(const DeviceHeap&) = delete;

    // The new allocation's start, or null with the reason in `why` (the capacity is exhausted,
    // or the host would not map it).
    void* allocate(size_t size, std::string& why);
    // False when `start` is not the start of a live allocation.
    bool release(void* start);
    // The allocation that holds all of [p, p + bytes) within its usable size, or null.
    const DeviceAllocation* holding(const void* p, size_t bytes) const;
    // The allocation whose mapped pages hold `p` (it may lie past the usable size), or null.
    const DeviceAllocation* around(const void* p) const;
    uint64_t in_use() const { return m_in_use; }

private:
    uint64_t m_capacity;
    uint64_t m_in_use = 0;
    std::map<uintptr_t, DeviceAllocation> m_live;  // by start address
};

}  // namespace ascendopt_twin::acl
