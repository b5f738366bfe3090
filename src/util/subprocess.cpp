#include "util/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>

extern char** environ;

namespace ascendopt {
namespace {

// Keeps the first and the last `keep` bytes of a stream.
class HeadTail {
public:
    explicit HeadTail(size_t keep) : m_keep(keep) {}
    void add(const char* p, size_t n) {
        m_total += n;
        const size_t to_head = std::min(n, m_keep - std::min(m_keep, m_head.size()));
        m_head.append(p, to_head);
        m_tail.append(p + to_head, n - to_head);
        if (m_tail.size() > 2 * m_keep) m_tail.erase(0, m_tail.size() - m_keep);
    }
    std::string str() const {
        const size_t tail = std::min(m_tail.size(), m_keep);
        const size_t omitted = m_total - m_head.size() - tail;
        if (omitted == 0) return m_head + m_tail;
        return m_head + "\n[... " + std::to_string(omitted) + " bytes omitted ...]\n" + m_tail.substr(m_tail.size() - tail);
    }

private:
    size_t m_keep;
    size_t m_total = 0;
    std::string m_head, m_tail;
};

std::vector<std::string> merged_env(const std::map<std::string, std::string>& extra, bool inherit) {
    std::map<std::string, std::string> all;
    for (char** e = environ; inherit && e && *e; ++e) {
        const char* eq = std::strchr(*e, '=');
        if (eq) all[std::string(*e, size_t(eq - *e))] = eq + 1;
    }
    for (const auto& [k, v] : extra) all[k] = v;
    std::vector<std::string> out;
    for (const auto& [k, v] : all) out.push_back(k + "=" + v);
    return out;
}

// Everything the child needs, made by the parent before vfork: until it execs, the child
// runs on the parent's memory and may only make system calls (no allocation, no locks).
struct ChildPlan {
    std::vector<char*> argv, envp;
    std::string program;                 // resolved path (execve does no PATH search)
    const char* cwd = nullptr;           // nullptr: inherit
    std::vector<std::pair<int, rlimit>> limits;  // resource, limit
    int out_fd = -1;
    int devnull = -1;
    sigset_t parent_mask{};
    // Written by the child before it gives up, read by the parent after vfork returns.
    enum class Failed { no, chdir, exec } failed = Failed::no;
    int failed_errno = 0;
    int report_fd = -1;  // fork fallback: where the child also writes {failed, errno}
};

[[noreturn]] void give_up(ChildPlan& p, ChildPlan::Failed why) {
    p.failed = why;
    p.failed_errno = errno;
    if (p.report_fd >= 0) {
        const int report[2] = {int(why), p.failed_errno};
        (void)!::write(p.report_fd, report, sizeof report);
    }
    _exit(127);
}

[[noreturn]] void child_after_vfork(ChildPlan& p) {
    // Handlers of the parent must not run in the child: back to the defaults, then unblock.
    for (int sig = 1; sig < NSIG; ++sig) {
        struct sigaction sa{};
        if (sig == SIGKILL || sig == SIGSTOP || sigaction(sig, nullptr, &sa) != 0) continue;
        if (sa.sa_handler != SIG_DFL && sa.sa_handler != SIG_IGN) {
            sa = {};
            sa.sa_handler = SIG_DFL;
            sigaction(sig, &sa, nullptr);
        }
    }
    sigprocmask(SIG_SETMASK, &p.parent_mask, nullptr);
    setpgid(0, 0);
    dup2(p.out_fd, STDOUT_FILENO);
    dup2(p.out_fd, STDERR_FILENO);
    if (p.devnull >= 0) dup2(p.devnull, STDIN_FILENO);
    if (p.cwd && chdir(p.cwd) != 0) give_up(p, ChildPlan::Failed::chdir);
    for (const auto& [resource, limit] : p.limits) setrlimit(resource, &limit);
    execve(p.program.c_str(), p.argv.data(), p.envp.data());
    give_up(p, ChildPlan::Failed::exec);
}

#if defined(__SANITIZE_ADDRESS__)
// AddressSanitizer cannot follow a vfork child (instrumented code on the parent's stack), so
// sanitizer builds fork, and learn of a failed chdir or exec through a close-on-exec pipe.
pid_t fork_and_exec(ChildPlan& plan) {
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) return -1;
    const pid_t pid = fork();
    if (pid == 0) {
        close(report[0]);
        plan.report_fd = report[1];
        child_after_vfork(plan);
    }
    close(report[1]);
    int got[2];
    if (pid > 0 && ::read(report[0], got, sizeof got) == ssize_t(sizeof got)) {
        plan.failed = ChildPlan::Failed(got[0]);
        plan.failed_errno = got[1];
    }
    close(report[0]);
    return pid;
}
#endif

// vfork, not fork: fork copies the page tables of the parent, which holds every case's
// inputs and goldens in memory, and costs milliseconds per operator run.
pid_t spawn(ChildPlan& plan) {
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &plan.parent_mask);
#if defined(__SANITIZE_ADDRESS__)
    const pid_t pid = fork_and_exec(plan);
#else
    const pid_t pid = vfork();
    if (pid == 0) child_after_vfork(plan);
#endif
    pthread_sigmask(SIG_SETMASK, &plan.parent_mask, nullptr);
    return pid;
}

}  // namespace

std::string ProcessResult::describe_end() const {
    if (!started) return "could not start";
    if (timed_out) return "timed out after " + std::to_string(wall_seconds).substr(0, 5) + " s";
    if (signal) return std::string("killed by ") + (sigabbrev_np(signal) ? std::string("SIG") + sigabbrev_np(signal) : std::to_string(signal));
    return "exit code " + std::to_string(exit_code);
}

ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& o) {
    ProcessResult r;
    int fds[2];
    if (argv.empty() || pipe2(fds, O_CLOEXEC) != 0) {
        r.output = argv.empty() ? "empty command" : std::string("pipe: ") + std::strerror(errno);
        return r;
    }
    const auto program = find_program(argv[0]);
    if (!program) {
        close(fds[0]);
        close(fds[1]);
        r.output = "cannot execute " + argv[0] + ": not found";
        return r;
    }
    const auto env = merged_env(o.env, o.inherit_env);
    const std::string cwd = o.cwd.string();
    ChildPlan plan;
    plan.program = std::filesystem::absolute(*program).string();  // the child may chdir first
    for (const auto& a : argv) plan.argv.push_back(const_cast<char*>(a.c_str()));
    plan.argv.push_back(nullptr);
    for (const auto& e : env) plan.envp.push_back(const_cast<char*>(e.c_str()));
    plan.envp.push_back(nullptr);
    plan.cwd = cwd.empty() ? nullptr : cwd.c_str();
    if (o.memory_limit_bytes > 0) plan.limits.push_back({RLIMIT_AS, {o.memory_limit_bytes, o.memory_limit_bytes}});
    // The soft CPU limit sends SIGXCPU, which a program may catch; the hard one a second later kills.
    if (o.cpu_seconds > 0) plan.limits.push_back({RLIMIT_CPU, {o.cpu_seconds, o.cpu_seconds + 1}});
    if (o.file_size_bytes > 0) plan.limits.push_back({RLIMIT_FSIZE, {o.file_size_bytes, o.file_size_bytes}});
    plan.out_fd = fds[1];
    plan.devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = spawn(plan);
    if (plan.devnull >= 0) close(plan.devnull);
    if (pid < 0 || plan.failed != ChildPlan::Failed::no) {
        const int err = pid < 0 ? errno : plan.failed_errno;
        if (pid > 0) waitpid(pid, nullptr, 0);
        close(fds[0]);
        close(fds[1]);
        r.output = pid < 0                                         ? std::string("vfork: ") + std::strerror(err)
                   : plan.failed == ChildPlan::Failed::chdir ? "cannot enter " + cwd + ": " + std::strerror(err)
                                                                   : "cannot execute " + argv[0] + ": " + std::strerror(err);
        return r;
    }
    setpgid(pid, pid);
    close(fds[1]);
    r.started = true;

    HeadTail captured(o.keep_bytes);
    char buf[8192];
    auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    for (;;) {
        int wait_ms = -1;
        if (o.timeout_seconds > 0) {
            const double left = o.timeout_seconds - elapsed();
            if (left <= 0) {
                r.timed_out = true;
                kill(-pid, SIGKILL);
                break;
            }
            wait_ms = int(left * 1000) + 1;
        }
        pollfd p{fds[0], POLLIN, 0};
        const int n = poll(&p, 1, wait_ms);
        if (n < 0 && errno == EINTR) continue;
        if (n == 0) continue;  // loop re-checks the deadline
        const ssize_t got = read(fds[0], buf, sizeof buf);
        if (got <= 0) break;  // EOF: every writer closed
        captured.add(buf, size_t(got));
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    kill(-pid, SIGKILL);  // stragglers of the group
    r.wall_seconds = elapsed();
    if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
    r.output = captured.str();
    return r;
}

std::optional<std::filesystem::path> find_program(const std::string& name) {
    if (name.find('/') != std::string::npos) {
        if (access(name.c_str(), X_OK) == 0) return std::filesystem::path(name);
        return std::nullopt;
    }
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/bin:/bin";
    size_t start = 0;
    while (start <= dirs.size()) {
        const size_t end = dirs.find(':', start);
        const std::string dir = dirs.substr(start, end == std::string::npos ? std::string::npos : end - start);
        const std::filesystem::path candidate = std::filesystem::path(dir.empty() ? "." : dir) / name;
        if (access(candidate.c_str(), X_OK) == 0) return candidate;
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return std::nullopt;
}

}  // namespace ascendopt
