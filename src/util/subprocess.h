// Runs a program as a child process in its own process group, with a wall-time limit (the
// whole group is killed when it passes), an optional address-space limit, optional bytes on
// its stdin, and its stdout+stderr captured, combined or apart (the first and last
// `keep_bytes`, so both a compiler's first error and a crash's last words survive).
// Thread-safe: each call is independent; a child that stops reading its stdin never raises
// SIGPIPE in the caller.
#pragma once

#include <linux/filter.h>

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ascendopt {

struct ProcessOptions {
    std::filesystem::path cwd;               // empty: inherit
    std::map<std::string, std::string> env;  // added to (or replacing in) the parent's environment
    bool inherit_env = true;                 // false: `env` is the whole environment
    double timeout_seconds = 0;              // 0: no limit
    uint64_t memory_limit_bytes = 0;         // RLIMIT_AS; 0: no limit
    uint64_t cpu_seconds = 0;                // RLIMIT_CPU (SIGKILL past it); 0: no limit
    uint64_t file_size_bytes = 0;            // RLIMIT_FSIZE, largest file it may write; 0: no limit
    // Tasks (processes and threads) of the whole tree at once, through a pids cgroup where one can
    // be made (task_cap.h; root is exempt from RLIMIT_NPROC); 0: no limit.
    uint32_t max_tasks = 0;
    size_t keep_bytes = 16 * 1024;           // per captured stream
    std::optional<std::string> stdin_data;   // fed to the child's stdin, then closed; nullopt: /dev/null
    bool separate_stderr = false;            // true: stdout in `output`, stderr in `error_output`
    // A seccomp program (classic BPF) the program runs under from its first instruction, before
    // its dynamic loader or any constructor: the launcher's walls (core/syscall_filter.h makes
    // the candidates'). Empty: none. Installed, with no_new_privs, by the child just before it
    // executes the program, or, when the program is bubblewrap, by bubblewrap just before it
    // executes the command inside its sandbox: the child then hands the program over as
    // descriptor 3, and the command line must carry `--seccomp 3` (sandbox.h).
    std::vector<sock_filter> seccomp;
    enum class SeccompBy { child, bubblewrap_fd3 } seccomp_by = SeccompBy::child;
};

struct ProcessResult {
    bool started = false;       // false: the program could not be executed (see output)
    int exit_code = -1;         // valid when exited normally
    int signal = 0;             // non-zero when killed by a signal
    bool timed_out = false;
    double wall_seconds = 0;
    std::string output;         // head and tail of stdout+stderr (stdout alone with separate_stderr)
    std::string error_output;   // head and tail of stderr, with separate_stderr
    bool succeeded() const { return started && !timed_out && signal == 0 && exit_code == 0; }
    std::string describe_end() const;  // "exit code 3", "killed by SIGSEGV", "timed out after 5.0 s"
};

ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options = {});

// The full path of `name` on PATH, or nullopt.
std::optional<std::filesystem::path> find_program(const std::string& name);

// From now on, SIGINT, SIGTERM and SIGHUP first kill every process group run_process has
// running (a golden's Python and whatever it started, a compiler, an operator run), then end
// the process by that signal as they would have. Call once, from main.
void kill_children_on_termination_signals();

}  // namespace ascendopt
