#include "candidate_memory.h"

#include <elf.h>
#include <errno.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <link.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <mutex>
#include <utility>
#include <vector>

#include "ascendopt_twin/raw_memory.h"
#include "twin_rt.h"

// The bounds of the candidate objects' statics, defined by the linker script of operator links
// (eval/builder.cpp); weak, so that binaries linked otherwise (tests) have none.
extern "C" {
extern char __ascendopt_candidate_data_start[] __attribute__((weak));
extern char __ascendopt_candidate_data_end[] __attribute__((weak));
}

namespace ascendopt_twin {
namespace {

struct StackBounds {
    uint64_t low = 0;
    uint64_t high = 0;
};
thread_local StackBounds t_stack;

bool inside(uint64_t addr, uint64_t bytes, uint64_t begin, uint64_t end) { return addr >= begin && addr <= end && bytes <= end - addr; }

// The widest piece (8, 4, 2 or 1 bytes) every address of a copy is aligned to.
size_t piece_for(uint64_t a, uint64_t b) {
    const uint64_t both = a | b;
    for (size_t p : {8, 4, 2}) if (both % p == 0) return p;
    return 1;
}

// Charges and checks a copy as the scalar loop that would make it: per piece, a read of the
// source (when there is one) and a write of the destination.
void as_scalar_loop(void* dst, const void* src, size_t bytes) {
    const auto d = reinterpret_cast<uint64_t>(dst);
    const auto s = reinterpret_cast<uint64_t>(src);
    const size_t piece = piece_for(d, src ? s : d);
    for (size_t off = 0; off < bytes; off += piece) {
        const size_t n = bytes - off < piece ? bytes - off : piece;
        if (src) scalar_access(reinterpret_cast<const void*>(s + off), n, false);
        scalar_access(reinterpret_cast<void*>(d + off), n, true);
    }
}

using Range = std::pair<uint64_t, uint64_t>;  // [begin, end)

// The read-only parts of every loaded object: code, constants, and what the loader made
// read-only after relocation (vtables).
int collect_read_only(struct dl_phdr_info* info, size_t, void* out) {
    auto& ranges = *static_cast<std::vector<Range>*>(out);
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const auto& ph = info->dlpi_phdr[i];
        const bool read_only_load = ph.p_type == PT_LOAD && !(ph.p_flags & PF_W);
        if (!read_only_load && ph.p_type != PT_GNU_RELRO) continue;
        const uint64_t begin = info->dlpi_addr + ph.p_vaddr;
        ranges.emplace_back(begin, begin + ph.p_memsz);
    }
    return 0;
}

// Sorted by start, overlapping and touching ranges merged: a kernel reading a constant table
// element by element pays a binary search per read, not a scan of every range.
const std::vector<Range>& read_only_ranges() {
    static std::once_flag once;
    static std::vector<Range> ranges;
    std::call_once(once, [] {
        std::vector<Range> found;
        dl_iterate_phdr(collect_read_only, &found);
        std::sort(found.begin(), found.end());
        for (const Range& r : found)
            if (!ranges.empty() && r.first <= ranges.back().second) ranges.back().second = std::max(ranges.back().second, r.second);
            else ranges.push_back(r);
    });
    return ranges;
}

// Only reads outside the kernel's own memory get here.
bool read_only(uint64_t addr, uint64_t bytes) {
    const auto& ranges = read_only_ranges();
    auto after = std::upper_bound(ranges.begin(), ranges.end(), addr, [](uint64_t a, const Range& r) { return a < r.first; });
    return after != ranges.begin() && inside(addr, bytes, std::prev(after)->first, std::prev(after)->second);
}

}  // namespace

void raw_copy(void* dst, const void* src, std::size_t bytes) { std::memcpy(dst, src, bytes); }
void raw_move(void* dst, const void* src, std::size_t bytes) { std::memmove(dst, src, bytes); }
void raw_fill(void* dst, int byte, std::size_t bytes) { std::memset(dst, byte, bytes); }

void own_stack(const void* low, const void* high) {
    t_stack.low = reinterpret_cast<uint64_t>(low);
    t_stack.high = reinterpret_cast<uint64_t>(high);
}

bool kernel_stack(uintptr_t& low, uintptr_t& high) {
    if (!t_stack.high) return false;
    low = uintptr_t(t_stack.low);
    high = uintptr_t(t_stack.high);
    return true;
}

bool kernel_may_write(uint64_t addr, uint64_t bytes) {
    if (t_stack.high && inside(addr, bytes, t_stack.low, t_stack.high)) return true;
    const auto begin = reinterpret_cast<uint64_t>(__ascendopt_candidate_data_start);
    const auto end = reinterpret_cast<uint64_t>(__ascendopt_candidate_data_end);
    return begin && end > begin && inside(addr, bytes, begin, end);
}

bool kernel_may_read(uint64_t addr, uint64_t bytes) { return kernel_may_write(addr, bytes) || read_only(addr, bytes); }

}  // namespace ascendopt_twin

extern "C" {

void* ascendopt_guard_memcpy(void* dst, const void* src, size_t bytes) {
    ascendopt_twin::as_scalar_loop(dst, src, bytes);
    return std::memcpy(dst, src, bytes);
}

void* ascendopt_guard_memmove(void* dst, const void* src, size_t bytes) {
    ascendopt_twin::as_scalar_loop(dst, src, bytes);
    return std::memmove(dst, src, bytes);
}

void* ascendopt_guard_memset(void* dst, int byte, size_t bytes) {
    ascendopt_twin::as_scalar_loop(dst, nullptr, bytes);
    return std::memset(dst, byte, bytes);
}

size_t ascendopt_guard_strlen(const char* s) {
    size_t n = 0;
    for (;; ++n) {
        ascendopt_twin::scalar_access(s + n, 1, false);
        if (s[n] == '\0') return n;
    }
}

int ascendopt_guard_prctl(int option, ...) {
    if (option == PR_SET_NAME || option == PR_GET_NAME) {
        va_list args;
        va_start(args, option);
        const unsigned long name = va_arg(args, unsigned long);
        va_end(args);
        return prctl(option, name, 0, 0, 0);
    }
    errno = EINVAL;
    return -1;
}

long ascendopt_guard_syscall(long number, ...) {
    if (number == SYS_gettid || number == SYS_getpid) return syscall(number);
    errno = ENOSYS;
    return -1;
}

// The printf family into a buffer: formatted on the twin's side, then copied in through the
// charged, confined copy; a %n conversion (a write through an argument) is refused.
static void refuse_percent_n(const char* format) {
    for (const char* p = format; *p; ++p) {
        if (*p != '%') continue;
        ++p;
        while (*p && std::strchr("-+ #0123456789.*hlqjztL'", *p)) ++p;
        if (*p == 'n')
            ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, "printf",
                                 "a %n conversion writes through an argument; kernel code may not use it");
        if (!*p) break;
    }
}

int ascendopt_guard_vsnprintf(char* dst, size_t bytes, const char* format, va_list args) {
    refuse_percent_n(format);
    std::vector<char> formatted(bytes ? bytes : 1);
    const int n = std::vsnprintf(formatted.data(), formatted.size(), format, args);
    if (n >= 0 && bytes) ascendopt_guard_memcpy(dst, formatted.data(), std::min(bytes, size_t(n) + 1));
    return n;
}

int ascendopt_guard_snprintf(char* dst, size_t bytes, const char* format, ...) {
    va_list args;
    va_start(args, format);
    const int n = ascendopt_guard_vsnprintf(dst, bytes, format, args);
    va_end(args);
    return n;
}

int ascendopt_guard_vsprintf(char* dst, const char* format, va_list args) {
    va_list measure;
    va_copy(measure, args);
    const int n = std::vsnprintf(nullptr, 0, format, measure);
    va_end(measure);
    return n < 0 ? n : ascendopt_guard_vsnprintf(dst, size_t(n) + 1, format, args);
}

int ascendopt_guard_sprintf(char* dst, const char* format, ...) {
    va_list args;
    va_start(args, format);
    const int n = ascendopt_guard_vsprintf(dst, format, args);
    va_end(args);
    return n;
}

}  // extern "C"
