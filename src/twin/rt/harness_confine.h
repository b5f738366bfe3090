// Operator binaries run untrusted code (the candidate's host tiling and kernel). Before any of
// it runs — the constructor that calls this has the earliest priority the linker orders, so it
// precedes candidates' static initialisers — the process loses, for good, the system calls an
// operator never needs: starting processes (fork, vfork, exec, clone without CLONE_THREAD),
// sockets, and reading or writing other processes (ptrace, process_vm_*). Threads stay
// allowed: blocks run as threads. The bubblewrap sandbox around the process is the outer wall;
// this is the inner one.
#pragma once

namespace ascendopt_twin::harness {

// Returns false (and leaves the process as it was) when the kernel refuses the filter.
bool forbid_process_escape_syscalls();

}  // namespace ascendopt_twin::harness
