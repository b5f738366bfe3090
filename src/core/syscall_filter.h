// The system calls a candidate's processes (its host binary and its operator binary) may make,
// as seccomp programs in classic BPF, for two moments of their life. Filters stack: one
// installed later can only take more away.
//  - from_exec: installed by the launcher (ascendopt's child process, or bubblewrap with
//    --seccomp) just before it executes the binary, so it holds from the binary's first
//    instruction, before the dynamic loader, the C and C++ runtimes' start-up or any
//    constructor of the candidate's could run: no new processes (threads only), sockets,
//    tracing, other processes' memory, signals to other processes, mounts, BPF, io_uring,
//    memory files, userfaultfd, resource limits, x32 calls. The loader still opens and maps
//    libraries and the harness still opens the job's files, so those stay.
//  - after_files_opened: the harness's own (twin/rt/harness_confine.h), once it has opened every
//    file of the job: the same, and besides no file reached by name, no program executed, no
//    executable memory made.
#pragma once

#include <linux/filter.h>

#include <vector>

namespace ascendopt {

enum class FilterStage { from_exec, after_files_opened };

std::vector<sock_filter> syscall_filter(FilterStage stage);

}  // namespace ascendopt
