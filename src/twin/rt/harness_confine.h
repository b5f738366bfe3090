// Operator binaries run untrusted code (the candidate's host tiling and kernel). Before any of
// it runs (harness_main.cpp: the first constructor, after the harness opened every file the job
// names) the process loses, for good, the system calls an operator never needs: starting
// processes (fork, vfork, exec, clone without CLONE_THREAD), sockets, reading or writing other
// processes (ptrace, process_vm_*, kill), reaching any file by name (open*, creat, link,
// rename, unlink, mkdir, truncate, mount, memfd, io_uring, ...), making memory executable
// (mmap/mprotect with PROT_EXEC) and changing resource limits. Threads stay allowed: blocks
// run as threads. The program is core/syscall_filter.h's (FilterStage::after_files_opened); it
// stacks on the launcher's (FilterStage::from_exec), which ascendopt or bubblewrap installed
// before the binary's first instruction. The bubblewrap sandbox around the process is the outer
// wall; these are the inner ones.
#pragma once

namespace ascendopt_twin::harness {

// Returns false (and leaves the process as it was) when the kernel refuses the filter.
bool forbid_process_escape_syscalls();

}  // namespace ascendopt_twin::harness
