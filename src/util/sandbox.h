// Confinement of untrusted processes (candidate builds, operator runs) with bubblewrap: a
// private mount namespace that shows the system's programs and libraries read-only plus only
// the paths a run needs, no network, its own PID namespace (when its first process dies, the
// kernel kills everything it started), a scrubbed environment, no capabilities, and its own
// session (no terminal to inject keystrokes into). Resource limits are ProcessOptions'.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "util/result.h"

namespace ascendopt {

// The size of the sandbox's /tmp, a tmpfs in RAM that no process limit counts: enough for a
// compiler's temporary files.
constexpr uint64_t k_sandbox_tmp_bytes = 256ull << 20;

struct SandboxSpec {
    std::vector<std::filesystem::path> read_only;  // visible read-only, at the same path
    std::vector<std::filesystem::path> writable;   // visible read-write, at the same path
    std::map<std::string, std::string> env;        // the whole environment, with PATH added
    std::filesystem::path cwd;                     // must be visible
    // bubblewrap installs the seccomp program it finds on descriptor 3 just before it executes
    // the command (ProcessOptions::SeccompBy::bubblewrap_fd3 puts it there).
    bool seccomp_from_fd3 = false;
};

// The bubblewrap that confines candidates, once checked to work on this machine (user and PID
// namespaces can be unavailable in containers). The error says why and what to do.
Result<std::filesystem::path> working_bubblewrap();

// The command line that runs `argv` confined by `spec`.
std::vector<std::string> sandboxed_argv(const std::filesystem::path& bwrap, const std::vector<std::string>& argv,
                                        const SandboxSpec& spec);

// bubblewrap reports a confined process killed by signal N as exit code 128 + N; this turns
// such a result back into the signal, so that reports read the same with or without sandbox.
void undo_sandbox_exit_code(struct ProcessResult& r);

}  // namespace ascendopt
