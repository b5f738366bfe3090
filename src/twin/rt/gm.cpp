// Device GM: a PROT_NONE address reservation, so a kernel that dereferences a GM pointer
// faults at once, while GlobalTensor and DataCopy reach the host memory behind it.
#include <sys/mman.h>

#include <algorithm>

#include "twin_rt.h"

namespace ascendopt_twin {
namespace {

constexpr uint64_t k_guard = 4096;  // unmapped gap after each buffer

std::string hex(uint64_t v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

}  // namespace

GmSpace::GmSpace(uint64_t capacity_bytes) : m_capacity(capacity_bytes + k_guard) {
    void* p = mmap(nullptr, m_capacity, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        fail(ErrorKind::resource_exceeded, "GM", "cannot reserve " + std::to_string(m_capacity) + " bytes of address space");
    m_base = static_cast<uint8_t*>(p);
}

GmSpace::~GmSpace() { munmap(m_base, m_capacity); }

uint8_t* GmSpace::add(const std::string& name, uint64_t bytes) {
    const uint64_t padded = (bytes + 511) & ~uint64_t(511);
    if (m_next + padded + k_guard > m_capacity)
        fail(ErrorKind::resource_exceeded, "GM", "buffer '" + name + "' of " + std::to_string(bytes) + " bytes does not fit");
    auto b = std::make_unique<Buffer>();
    b->name = name;
    b->addr = reinterpret_cast<uint64_t>(m_base) + m_next;
    b->bytes = bytes;
    // Bytes past the end up to the next 32-byte block are readable (DataCopy moves whole
    // blocks) but hold 0xFF, so a kernel that computes with them gets visibly wrong results.
    b->data.resize(padded);  // zeros
    std::fill(b->data.begin() + static_cast<std::ptrdiff_t>(bytes), b->data.end(), 0xFF);
    m_next += padded + k_guard;
    uint8_t* device = reinterpret_cast<uint8_t*>(b->addr);
    m_buffers.push_back(std::move(b));
    return device;
}

const GmSpace::Buffer* GmSpace::find(uint64_t addr) const {
    for (const auto& b : m_buffers)
        if (addr >= b->addr && addr < b->addr + std::max<uint64_t>((b->bytes + 31) & ~uint64_t(31), 1)) return b.get();
    return nullptr;
}

uint8_t* GmSpace::host(const uint8_t* device_addr) {
    const Buffer* b = find(reinterpret_cast<uint64_t>(device_addr));
    return b ? const_cast<uint8_t*>(b->data.data()) + (reinterpret_cast<uint64_t>(device_addr) - b->addr) : nullptr;
}

bool GmSpace::contains(uint64_t addr) const {
    const uint64_t base = reinterpret_cast<uint64_t>(m_base);
    return addr >= base && addr < base + m_capacity;
}

bool GmSpace::describe(uint64_t addr, std::string& name, uint64_t& offset) const {
    for (const auto& b : m_buffers)
        if (addr >= b->addr && addr < b->addr + ((b->bytes + 511) & ~uint64_t(511)) + k_guard) {
            name = b->name;
            offset = addr - b->addr;
            return true;
        }
    return false;
}

uint8_t* GmSpace::translate(uint64_t addr, uint64_t bytes, bool write, const char* api) {
    const Buffer* b = find(addr);
    if (!b) {
        std::string name;
        uint64_t off = 0;
        if (describe(addr, name, off))
            fail(ErrorKind::run_failed, api,
                 std::string(write ? "write" : "read") + " of " + std::to_string(bytes) + " bytes starts " +
                     std::to_string(off) + " bytes into GM buffer '" + name + "', past its end");
        fail(ErrorKind::run_failed, api, "GM address " + hex(addr) + " is not inside any GM buffer");
    }
    const uint64_t off = addr - b->addr;
    const uint64_t limit = write ? b->bytes : ((b->bytes + 31) & ~uint64_t(31));
    if (off + bytes > limit)
        fail(ErrorKind::run_failed, api,
             std::string(write ? "write" : "read") + " of " + std::to_string(bytes) + " bytes at byte " + std::to_string(off) +
                 " of GM buffer '" + b->name + "' (" + std::to_string(b->bytes) + " bytes) runs " +
                 std::to_string(off + bytes - b->bytes) + " bytes past its end" +
                 (write ? "" : " (reads may round up to the next 32-byte block, no further)") +
                 (write ? "; use DataCopyPad for the ragged tail" : ""));
    return const_cast<uint8_t*>(b->data.data()) + off;
}

}  // namespace ascendopt_twin
