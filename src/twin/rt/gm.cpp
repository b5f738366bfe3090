// Device GM: an address reservation whose tensors are mapped where the kernel sees them, laid
// out as the device runtime lays them out (GmLayout, docs/twin.md "Device memory"). Only the
// tensors' pages are mapped; the rest of the reservation faults.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "twin_rt.h"

namespace ascendopt_twin {
namespace {

constexpr uint64_t k_guard = 4096;        // unmapped bytes after the last tensor
constexpr uint64_t k_pool_block = 512;    // memory pools hand out 512-byte multiples
constexpr uint64_t k_pool_padding = 32;   // ... of at least the tensor plus 32 bytes
constexpr uint8_t k_poison = 0xFF;        // padding and unwritten outputs: NaN, or -1

uint64_t round_up(uint64_t v, uint64_t to) { return (v + to - 1) / to * to; }

std::string hex(uint64_t v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

std::string bytes_text(uint64_t n) { return std::to_string(n) + (n == 1 ? " byte" : " bytes"); }

}  // namespace

GmSpace::GmSpace(uint64_t capacity_bytes, GmLayout layout) : m_layout(layout), m_capacity(capacity_bytes + k_guard) {
    void* p = mmap(nullptr, m_capacity, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        fail(ErrorKind::resource_exceeded, "GM", "cannot reserve " + std::to_string(m_capacity) + " bytes of address space");
    m_base = static_cast<uint8_t*>(p);
}

GmSpace::~GmSpace() { munmap(m_base, m_capacity); }

uint64_t GmSpace::footprint(uint64_t bytes, GmLayout layout) {
    // Strict: the tensor rounded to whole 32-byte blocks, with a guard page after it so that
    // neighbours are never reached by an access that was allowed to run a block long.
    if (layout == GmLayout::strict) return round_up(std::max<uint64_t>(bytes, 1), 32) + k_guard;
    return round_up(bytes + k_pool_padding, k_pool_block);
}

uint8_t* GmSpace::add(const std::string& name, uint64_t bytes) {
    const uint64_t allocated = footprint(bytes, m_layout);
    if (m_next + allocated + k_guard > m_capacity)
        fail(ErrorKind::resource_exceeded, "GM", "tensor '" + name + "' of " + bytes_text(bytes) + " does not fit");
    auto b = std::make_unique<Buffer>();
    b->name = name;
    b->addr = reinterpret_cast<uint64_t>(m_base) + m_next;
    b->bytes = bytes;
    b->allocated = m_layout == GmLayout::strict ? round_up(std::max<uint64_t>(bytes, 1), 32) : allocated;
    // Map the tensor's pages (a strict-layout guard page after it stays unmapped); fresh pages
    // are zero, and the padding gets poison.
    const uint64_t page = uint64_t(sysconf(_SC_PAGESIZE));
    const uint64_t from = b->addr / page * page, to = round_up(b->addr + b->allocated, page);
    if (mprotect(reinterpret_cast<void*>(from), to - from, PROT_READ | PROT_WRITE) != 0)
        fail(ErrorKind::resource_exceeded, "GM", "cannot map " + bytes_text(b->allocated) + " for tensor '" + name + "'");
    std::memset(reinterpret_cast<uint8_t*>(b->addr) + bytes, k_poison, b->allocated - bytes);
    m_next += allocated;
    uint8_t* device = reinterpret_cast<uint8_t*>(b->addr);
    m_buffers.push_back(std::move(b));
    return device;
}

const GmSpace::Buffer* GmSpace::find(uint64_t addr) const {
    for (const auto& b : m_buffers)
        if (addr >= b->addr && addr < b->addr + b->allocated) return b.get();
    return nullptr;
}

const GmSpace::Buffer* GmSpace::next_after(const Buffer& b) const {
    for (size_t i = 0; i + 1 < m_buffers.size(); ++i)
        if (m_buffers[i].get() == &b) return m_buffers[i + 1].get();
    return nullptr;
}

uint8_t* GmSpace::host(const uint8_t* device_addr) {
    return find(reinterpret_cast<uint64_t>(device_addr)) ? const_cast<uint8_t*>(device_addr) : nullptr;
}

uint64_t GmSpace::tensor_bytes() const {
    uint64_t total = 0;
    for (const auto& b : m_buffers) total += b->bytes;
    return total;
}

bool GmSpace::contains(uint64_t addr) const {
    const uint64_t base = reinterpret_cast<uint64_t>(m_base);
    return addr >= base && addr < base + m_capacity;
}

bool GmSpace::describe(uint64_t addr, std::string& name, uint64_t& offset) const {
    for (const auto& b : m_buffers)
        if (addr >= b->addr && addr < b->addr + footprint(b->bytes, m_layout)) {
            name = b->name;
            offset = addr - b->addr;
            return true;
        }
    return false;
}

std::string GmSpace::outside_every_allocation(uint64_t addr) const {
    const Buffer* below = nullptr;  // the allocation that ends closest before addr
    for (const auto& b : m_buffers)
        if (b->addr + b->allocated <= addr && (!below || b->addr > below->addr)) below = b.get();
    if (!below) return "GM address " + hex(addr) + " lies before every tensor of the call";
    return "GM address " + hex(addr) + " lies " + bytes_text(addr - (below->addr + below->allocated)) +
           " past the allocation of GM tensor '" + below->name + "' (" + bytes_text(below->bytes) + ", allocated " +
           std::to_string(below->allocated) + "), in memory the call does not own";
}

void GmSpace::fail_outside(const Buffer& b, uint64_t off, uint64_t bytes, bool write, const char* api) const {
    const std::string access = std::string(write ? "write" : "read") + " of " + bytes_text(bytes) + " at byte " + std::to_string(off) +
                               " of GM tensor '" + b.name + "' (" + bytes_text(b.bytes) + ")";
    const uint64_t past = off + bytes - b.bytes;
    if (m_layout == GmLayout::strict)
        fail(ErrorKind::run_failed, api,
             access + " runs " + bytes_text(past) + " past its end" +
                 (write ? "; use DataCopyPad for the ragged tail (--strict-gm: no allocation padding is assumed)"
                        : " (reads may round up to the next 32-byte block, no further; --strict-gm)"));
    const Buffer* next = next_after(b);
    const std::string reaches = next ? "into tensor '" + next->name + "', which the runtime allocates right after it"
                                     : "past the last allocation of the call";
    fail(ErrorKind::run_failed, api,
         access + " runs " + bytes_text(past) + " past its end and " + bytes_text(off + bytes - b.allocated) +
             " past its " + std::to_string(b.allocated) + "-byte allocation, " + reaches +
             "; on the device this touches another tensor's memory");
}

void GmSpace::note_padding(const Buffer& b, uint64_t past_end, bool write, const char* api) {
    std::lock_guard lock(m_notes_mutex);
    PaddingNote& note = m_padding[{b.name, write}];
    if (past_end > note.bytes_past_end) note = {b.name, api, write, past_end};
}

std::vector<GmSpace::PaddingNote> GmSpace::padding_notes() const {
    std::lock_guard lock(m_notes_mutex);
    std::vector<PaddingNote> out;
    for (const auto& [key, note] : m_padding) out.push_back(note);
    return out;
}

uint8_t* GmSpace::checked(uint64_t addr, uint64_t bytes, bool write, const char* api, uint64_t origin, const Buffer*& b) {
    b = find(addr);
    // A GlobalTensor reaches only the allocation it was set up in: an offset that lands in the
    // tensor after it touches that tensor's memory on the device, however the pool is laid out.
    if (const Buffer* home = origin ? find(origin) : nullptr; home && home != b) {
        if (addr < home->addr)
            fail(ErrorKind::run_failed, api,
                 std::string(write ? "write" : "read") + " of " + bytes_text(bytes) + " starts " + bytes_text(home->addr - addr) +
                     " before GM tensor '" + home->name + "', which the GlobalTensor was set up in");
        fail_outside(*home, addr - home->addr, bytes, write, api);
    }
    if (!b) {
        std::string name;
        uint64_t off = 0;
        if (describe(addr, name, off))
            fail(ErrorKind::run_failed, api,
                 std::string(write ? "write" : "read") + " of " + bytes_text(bytes) + " starts " + std::to_string(off) +
                     " bytes into GM tensor '" + name + "', past its end");
        fail(ErrorKind::run_failed, api, outside_every_allocation(addr));
    }
    const uint64_t off = addr - b->addr;
    const uint64_t end = off + bytes;
    const uint64_t strict_limit = write ? b->bytes : round_up(b->bytes, 32);
    if (end > (m_layout == GmLayout::strict ? strict_limit : b->allocated)) fail_outside(*b, off, bytes, write, api);
    if (end > b->bytes && m_layout == GmLayout::pool) note_padding(*b, end - b->bytes, write, api);
    return reinterpret_cast<uint8_t*>(addr);
}

uint8_t* GmSpace::translate(uint64_t addr, uint64_t bytes, bool write, const char* api, uint64_t origin) {
    const Buffer* b = nullptr;
    uint8_t* host = checked(addr, bytes, write, api, origin, b);
    if (write && b->written) mark_written(*b, addr - b->addr, std::min(addr - b->addr + bytes, b->bytes));
    return host;
}

void GmSpace::check_write(uint64_t addr, uint64_t bytes, const char* api, uint64_t origin) {
    const Buffer* b = nullptr;
    checked(addr, bytes, true, api, origin, b);
}

void GmSpace::track_writes(const uint8_t* device_addr) {
    for (auto& b : m_buffers)
        if (b->addr == reinterpret_cast<uint64_t>(device_addr)) {
            const uint64_t words = (b->bytes + 63) / 64;
            b->written = std::make_unique<std::atomic<uint64_t>[]>(words);
            for (uint64_t i = 0; i < words; ++i) b->written[i].store(0, std::memory_order_relaxed);
        }
}

void GmSpace::mark_written(const Buffer& b, uint64_t off, uint64_t end) {
    while (off < end) {
        const uint64_t word = off / 64, bit = off % 64;
        const uint64_t n = std::min<uint64_t>(64 - bit, end - off);
        const uint64_t bits = n == 64 ? ~uint64_t(0) : ((uint64_t(1) << n) - 1) << bit;
        if ((b.written[word].load(std::memory_order_relaxed) & bits) != bits) b.written[word].fetch_or(bits, std::memory_order_relaxed);
        off += n;
    }
}

GmSpace::Unwritten GmSpace::unwritten(const uint8_t* device_addr) const {
    Unwritten u;
    const Buffer* b = find(reinterpret_cast<uint64_t>(device_addr));
    if (!b || !b->written) return u;
    for (uint64_t word = 0; word * 64 < b->bytes; ++word) {
        const uint64_t valid = std::min<uint64_t>(64, b->bytes - word * 64);
        const uint64_t mask = valid == 64 ? ~uint64_t(0) : (uint64_t(1) << valid) - 1;
        const uint64_t missing = ~b->written[word].load(std::memory_order_relaxed) & mask;
        if (!missing) continue;
        if (!u.bytes) u.first_byte = word * 64 + uint64_t(__builtin_ctzll(missing));
        u.bytes += uint64_t(__builtin_popcountll(missing));
    }
    return u;
}

}  // namespace ascendopt_twin
