#include "harness_frozen.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <map>
#include <new>

#include "soc_json.h"
#include "twin_rt.h"

namespace ascendopt_twin::harness {
namespace {

// One reservation, filled from the front; each build_frozen starts on a fresh page and ends by
// protecting the pages it used.
constexpr std::size_t k_area_bytes = std::size_t(16) << 20;
unsigned char* g_area = nullptr;
std::size_t g_used = 0;
thread_local bool t_building = false;

std::size_t page_size() { return std::size_t(sysconf(_SC_PAGESIZE)); }

bool in_area(const void* p) {
    const auto* b = static_cast<const unsigned char*>(p);
    return g_area && b >= g_area && b < g_area + k_area_bytes;
}

}  // namespace

void* frozen_allocate(std::size_t bytes) {
    if (!g_area) {
        void* p = mmap(nullptr, k_area_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) throw std::bad_alloc();
        g_area = static_cast<unsigned char*>(p);
    }
    const std::size_t start = (g_used + 15) / 16 * 16;
    if (bytes > k_area_bytes - start) throw std::bad_alloc();
    g_used = start + bytes;
    return g_area + start;
}

void build_frozen(const std::function<void()>& fill) {
    const std::size_t page = page_size();
    g_used = (g_used + page - 1) / page * page;
    const std::size_t first = g_used;
    t_building = true;
    try {
        fill();
    } catch (...) {
        t_building = false;
        throw;
    }
    t_building = false;
    const std::size_t end = (g_used + page - 1) / page * page;
    if (end > first && mprotect(g_area + first, end - first, PROT_READ) != 0) std::abort();  // never run with a writable SoC
    g_used = end;
}

const SocSpec* frozen_soc(const nlohmann::json& description, std::string& error) {
    // Every description the process has seen (a job's SoC and its timing variants), built once.
    static std::map<std::string, const SocSpec*> frozen;
    std::string text = description.dump();
    if (const auto it = frozen.find(text); it != frozen.end()) return it->second;
    SocSpec* soc = nullptr;
    bool ok = false;
    build_frozen([&] {
        soc = new (frozen_allocate(sizeof(SocSpec))) SocSpec();
        ok = soc_from_json(description, *soc, error);
    });
    if (!ok) return nullptr;
    frozen.emplace(std::move(text), soc);
    return soc;
}

}  // namespace ascendopt_twin::harness

// The operator binary's allocation functions: plain malloc, except while the harness builds a
// frozen object, and frees of frozen memory are ignored (it lives as long as the process).
namespace {

// As the standard operator new: on failure, the new handler (the harness's reports the memory
// limit) until it gives up.
void* allocate_or_throw(std::size_t bytes) {
    if (ascendopt_twin::harness::t_building) return ascendopt_twin::harness::frozen_allocate(bytes);
    for (;;) {
        if (void* p = std::malloc(bytes ? bytes : 1)) return p;
        const std::new_handler handler = std::get_new_handler();
        if (!handler) throw std::bad_alloc();
        handler();
    }
}

void release(void* p) noexcept {
    if (!ascendopt_twin::harness::in_area(p)) std::free(p);
}

}  // namespace

void* operator new(std::size_t bytes) { return allocate_or_throw(bytes); }
void* operator new[](std::size_t bytes) { return allocate_or_throw(bytes); }
void* operator new(std::size_t bytes, const std::nothrow_t&) noexcept {
    try {
        return allocate_or_throw(bytes);
    } catch (...) {
        return nullptr;
    }
}
void* operator new[](std::size_t bytes, const std::nothrow_t& t) noexcept { return operator new(bytes, t); }
void operator delete(void* p) noexcept { release(p); }
void operator delete[](void* p) noexcept { release(p); }
void operator delete(void* p, std::size_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t) noexcept { release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { release(p); }
