#include "eval/candidate_launch.h"

#include "core/syscall_filter.h"

namespace ascendopt {

void add_launch_walls(ProcessOptions& process, SandboxSpec* view) {
    static const std::vector<sock_filter> filter = syscall_filter(FilterStage::from_exec);
    process.seccomp = filter;
    process.seccomp_by = view ? ProcessOptions::SeccompBy::bubblewrap_fd3 : ProcessOptions::SeccompBy::child;
    if (view) view->seccomp_from_fd3 = true;
}

}  // namespace ascendopt
