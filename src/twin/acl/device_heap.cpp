#include "device_heap.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>

namespace ascendopt_twin::acl {
namespace {

constexpr uint8_t k_uninitialized = 0xFF;  // NaN for floats, -1 for integers: visibly wrong

size_t round_up(size_t v, size_t to) { return (v + to - 1) / to * to; }
size_t page_size() { return size_t(sysconf(_SC_PAGESIZE)); }

}  // namespace

size_t usable_size(size_t size) { return round_up(size, 32) + 32; }

DeviceHeap::~DeviceHeap() {
    for (auto& [start, a] : m_live) munmap(a.start, a.mapped + page_size());
}

void* DeviceHeap::allocate(size_t size, std::string& why) {
    const size_t usable = usable_size(size);
    const size_t mapped = round_up(usable, page_size());
    if (m_in_use + usable > m_capacity) {
        why = "the device has " + std::to_string(m_capacity - m_in_use) + " bytes free, and " + std::to_string(size) +
              " bytes need " + std::to_string(usable);
        return nullptr;
    }
    // Pages are 64-byte aligned, so the start is too; the page after `mapped` stays PROT_NONE.
    void* p = mmap(nullptr, mapped + page_size(), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED || mprotect(p, mapped, PROT_READ | PROT_WRITE) != 0) {
        if (p != MAP_FAILED) munmap(p, mapped + page_size());
        why = "the host could not map " + std::to_string(mapped) + " bytes: " + std::strerror(errno);
        return nullptr;
    }
    std::memset(p, k_uninitialized, mapped);
    auto* start = static_cast<uint8_t*>(p);
    m_live[reinterpret_cast<uintptr_t>(start)] = DeviceAllocation{start, size, usable, mapped};
    m_in_use += usable;
    return start;
}

bool DeviceHeap::release(void* start) {
    const auto it = m_live.find(reinterpret_cast<uintptr_t>(start));
    if (it == m_live.end()) return false;
    munmap(it->second.start, it->second.mapped + page_size());
    m_in_use -= it->second.usable;
    m_live.erase(it);
    return true;
}

const DeviceAllocation* DeviceHeap::around(const void* p) const {
    const auto addr = reinterpret_cast<uintptr_t>(p);
    auto it = m_live.upper_bound(addr);
    if (it == m_live.begin()) return nullptr;
    --it;
    return addr < it->first + it->second.mapped ? &it->second : nullptr;
}

const DeviceAllocation* DeviceHeap::holding(const void* p, size_t bytes) const {
    const DeviceAllocation* a = around(p);
    if (!a) return nullptr;
    const auto offset = reinterpret_cast<uintptr_t>(p) - reinterpret_cast<uintptr_t>(a->start);
    return offset + bytes <= a->usable ? a : nullptr;
}

}  // namespace ascendopt_twin::acl
