#include "harness_confine.h"

#include <linux/seccomp.h>
#include <sys/prctl.h>

#include "core/syscall_filter.h"

namespace ascendopt_twin::harness {

bool forbid_process_escape_syscalls() {
    std::vector<sock_filter> prog = ascendopt::syscall_filter(ascendopt::FilterStage::after_files_opened);
    sock_fprog fprog{static_cast<unsigned short>(prog.size()), prog.data()};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return false;
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog) == 0;
}

}  // namespace ascendopt_twin::harness
