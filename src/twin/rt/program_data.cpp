// The kernel's own global data as GM: a kernel may declare constant tables at namespace scope
// (`constexpr static __gm__ T table[256] = {...}`) and copy from them with DataCopy. On the
// device they are part of the kernel binary, which the runtime loads into GM; here they are in
// the harness program's data segments, outside the call's GM reservation.
#include <elf.h>
#include <link.h>

#include <mutex>
#include <utility>
#include <vector>

#include "twin_rt.h"

namespace ascendopt_twin {
namespace {

using Range = std::pair<uint64_t, uint64_t>;  // [begin, end)

// The non-executable loadable segments of the main program (the harness, kernel linked in).
int collect_main_program(struct dl_phdr_info* info, size_t, void* out) {
    auto& ranges = *static_cast<std::vector<Range>*>(out);
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const auto& ph = info->dlpi_phdr[i];
        if (ph.p_type != PT_LOAD || (ph.p_flags & PF_X)) continue;
        const uint64_t begin = info->dlpi_addr + ph.p_vaddr;
        ranges.emplace_back(begin, begin + ph.p_memsz);
    }
    return 1;  // the first object reported is the main program
}

const std::vector<Range>& program_data() {
    static std::once_flag once;
    static std::vector<Range> ranges;
    std::call_once(once, [] { dl_iterate_phdr(collect_main_program, &ranges); });
    return ranges;
}

}  // namespace

bool in_program_data(uint64_t addr, uint64_t bytes) {
    for (const auto& [begin, end] : program_data())
        if (addr >= begin && addr + bytes <= end) return true;
    return false;
}

}  // namespace ascendopt_twin
