#include "util/subprocess.h"

#include <fcntl.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "util/task_cap.h"

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

// The process groups of running children, readable from a signal handler: slots of pgids, 0
// when free. More children than slots still run; only the signal-time kill misses them (each
// still dies with ascendopt through PR_SET_PDEATHSIG).
class LiveGroups {
public:
    static constexpr size_t k_slots = 1024;
    // The slot taken, or k_slots when none was free.
    static size_t add(pid_t pgid) {
        for (size_t i = 0; i < k_slots; ++i) {
            pid_t free = 0;
            if (slots()[i].compare_exchange_strong(free, pgid)) return i;
        }
        return k_slots;
    }
    static void remove(size_t slot) {
        if (slot < k_slots) slots()[slot].store(0);
    }
    // Async-signal-safe.
    static void kill_all() {
        for (size_t i = 0; i < k_slots; ++i)
            if (const pid_t g = slots()[i].load(); g > 0) ::kill(-g, SIGKILL);
    }

private:
    static std::atomic<pid_t>* slots() {
        static std::atomic<pid_t> s[k_slots];
        return s;
    }
};

void on_termination_signal(int sig) {
    const int saved = errno;
    LiveGroups::kill_all();
    signal(sig, SIG_DFL);
    raise(sig);  // delivered when this handler returns: the process ends as the signal says
    errno = saved;
}

// Everything the child needs, made by the parent before vfork: until it execs, the child
// runs on the parent's memory and may only make system calls (no allocation, no locks).
struct ChildPlan {
    std::vector<char*> argv, envp;
    std::string program;                 // resolved path (execve does no PATH search)
    const char* cwd = nullptr;           // nullptr: inherit
    std::vector<std::pair<int, rlimit>> limits;  // resource, limit
    int out_fd = -1;
    int err_fd = -1;  // -1: stderr goes to out_fd
    int in_fd = -1;   // the child's stdin: a pipe or /dev/null
    sigset_t parent_mask{};
    // Written by the child before it gives up, read by the parent after vfork returns.
    enum class Failed { no, chdir, exec, seccomp } failed = Failed::no;
    int failed_errno = 0;
    int report_fd = -1;  // fork fallback: where the child also writes {failed, errno}
    int cgroup_procs_fd = -1;  // the child enters the task-capped group here (task_cap.h)
    pid_t parent = 0;          // the child dies with it (PR_SET_PDEATHSIG)
    const sock_fprog* seccomp = nullptr;  // installed just before exec
    int seccomp_fd3 = -1;                 // becomes descriptor 3 (bubblewrap's --seccomp 3)
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
    // A child outlives no ascendopt: killed when the thread that started it ends, and at once if
    // that already happened before the request took effect.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != p.parent) _exit(127);
    if (p.cgroup_procs_fd >= 0) {
        char digits[24];
        int n = 0;
        for (long v = long(getpid()); v > 0; v /= 10) digits[n++] = char('0' + v % 10);
        char text[24];
        for (int i = 0; i < n; ++i) text[i] = digits[n - 1 - i];
        (void)!::write(p.cgroup_procs_fd, text, size_t(n));
    }
    sigprocmask(SIG_SETMASK, &p.parent_mask, nullptr);
    setpgid(0, 0);
    dup2(p.out_fd, STDOUT_FILENO);
    dup2(p.err_fd >= 0 ? p.err_fd : p.out_fd, STDERR_FILENO);
    if (p.in_fd >= 0) dup2(p.in_fd, STDIN_FILENO);
    if (p.cwd && chdir(p.cwd) != 0) give_up(p, ChildPlan::Failed::chdir);
    for (const auto& [resource, limit] : p.limits) setrlimit(resource, &limit);
    if (p.seccomp_fd3 >= 0) {
        if (p.seccomp_fd3 == 3) fcntl(3, F_SETFD, 0);  // keep it across exec
        else dup2(p.seccomp_fd3, 3);                   // the copy is not close-on-exec
    }
    // Fail closed: without its walls the program does not run.
    if (p.seccomp && (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, p.seccomp) != 0))
        give_up(p, ChildPlan::Failed::seccomp);
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

namespace {

// The parent's ends of the child's pipes; closes whatever is still open.
struct ParentPipes {
    int out = -1, err = -1, in = -1;
    ~ParentPipes() {
        for (int fd : {out, err, in})
            if (fd >= 0) close(fd);
    }
};

// Creates the pipes: the child's ends go into `plan`, the parent's into `parent`.
bool make_pipes(const ProcessOptions& o, ChildPlan& plan, ParentPipes& parent, std::string& why) {
    int fds[2];
    auto make = [&](int& parent_end, int& child_end, bool parent_reads) {
        if (pipe2(fds, O_CLOEXEC) != 0) return false;
        parent_end = parent_reads ? fds[0] : fds[1];
        child_end = parent_reads ? fds[1] : fds[0];
        return true;
    };
    bool ok = make(parent.out, plan.out_fd, true);
    if (ok && o.separate_stderr) ok = make(parent.err, plan.err_fd, true);
    if (ok && o.stdin_data) ok = make(parent.in, plan.in_fd, false);
    if (ok && !o.stdin_data) plan.in_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (!ok) why = std::string("pipe: ") + std::strerror(errno);
    if (parent.in >= 0) fcntl(parent.in, F_SETFL, O_NONBLOCK);
    return ok;
}

void close_child_ends(ChildPlan& plan) {
    for (int* fd : {&plan.out_fd, &plan.err_fd, &plan.in_fd, &plan.seccomp_fd3})
        if (*fd >= 0) close(std::exchange(*fd, -1));
}

// Prepares the seccomp program for the child: to install itself, or for bubblewrap as the read
// end of a pipe that holds the program and then ends. A program of at most 4,096 instructions
// (the kernel's limit, 32 KiB) fits a pipe's buffer, so the write never blocks. Also lifts the
// soft limit on descriptors to the hard one, which the program can no longer do itself (the
// filter refuses new limits).
bool hand_over_seccomp(const ProcessOptions& o, const sock_fprog& filter, ChildPlan& plan, std::string& why) {
    if (rlimit files{}; getrlimit(RLIMIT_NOFILE, &files) == 0) plan.limits.push_back({RLIMIT_NOFILE, {files.rlim_max, files.rlim_max}});
    if (o.seccomp_by == ProcessOptions::SeccompBy::child) {
        plan.seccomp = &filter;
        return true;
    }
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        why = std::string("pipe: ") + std::strerror(errno);
        return false;
    }
    const size_t bytes = o.seccomp.size() * sizeof(sock_filter);
    const bool wrote = ::write(fds[1], o.seccomp.data(), bytes) == ssize_t(bytes);
    close(fds[1]);
    if (!wrote || o.seccomp.size() > BPF_MAXINSNS) {
        close(fds[0]);
        why = "cannot hand the seccomp filter over";
        return false;
    }
    plan.seccomp_fd3 = fds[0];
    return true;
}

// write() that turns a closed reader into EPIPE without a SIGPIPE for the process: the signal
// is blocked in this thread and a pending one is taken back before unblocking.
ssize_t write_without_sigpipe(int fd, const char* data, size_t n) {
    sigset_t pipe_only, old;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_only, &old);
    const ssize_t wrote = ::write(fd, data, n);
    if (wrote < 0 && errno == EPIPE) {
        const timespec zero{0, 0};
        sigtimedwait(&pipe_only, nullptr, &zero);
        errno = EPIPE;
    }
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    return wrote;
}

// Feeds stdin and drains stdout/stderr until both outputs reach EOF or the deadline passes.
void pump(const ProcessOptions& o, ParentPipes& pipes, pid_t pid, ProcessResult& r, const std::chrono::steady_clock::time_point start) {
    HeadTail out(o.keep_bytes), err(o.keep_bytes);
    const std::string& input = o.stdin_data ? *o.stdin_data : std::string();
    size_t fed = 0;
    if (pipes.in >= 0 && input.empty()) close(std::exchange(pipes.in, -1));
    char buf[8192];
    auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    while (pipes.out >= 0 || pipes.err >= 0) {
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
        pollfd p[3] = {{pipes.out, POLLIN, 0}, {pipes.err, POLLIN, 0}, {pipes.in, POLLOUT, 0}};
        const int n = poll(p, 3, wait_ms);  // negative fds are ignored by poll
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) continue;  // loop re-checks the deadline
        if (p[2].revents) {
            const ssize_t wrote = write_without_sigpipe(pipes.in, input.data() + fed, input.size() - fed);
            if (wrote > 0) fed += size_t(wrote);
            if ((wrote < 0 && errno != EAGAIN) || fed == input.size()) close(std::exchange(pipes.in, -1));
        }
        for (auto [i, sink] : {std::pair{0, &out}, std::pair{1, &err}}) {
            if (!p[i].revents) continue;
            int& fd = i == 0 ? pipes.out : pipes.err;
            const ssize_t got = read(fd, buf, sizeof buf);
            if (got > 0) sink->add(buf, size_t(got));
            else if (got == 0 || errno != EINTR) close(std::exchange(fd, -1));  // EOF: every writer closed
        }
    }
    r.output = out.str();
    r.error_output = err.str();
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& o) {
    ProcessResult r;
    if (argv.empty()) {
        r.output = "empty command";
        return r;
    }
    const auto program = find_program(argv[0]);
    if (!program) {
        r.output = "cannot execute " + argv[0] + ": not found";
        return r;
    }
    const auto env = merged_env(o.env, o.inherit_env);
    const std::string cwd = o.cwd.string();
    ChildPlan plan;
    ParentPipes pipes;
    if (!make_pipes(o, plan, pipes, r.output)) {
        close_child_ends(plan);
        return r;
    }
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
    const auto cap = o.max_tasks > 0 ? TaskCap::create(o.max_tasks) : nullptr;
    if (cap) plan.cgroup_procs_fd = cap->procs_fd();
    plan.parent = getpid();
    const sock_fprog filter{static_cast<unsigned short>(o.seccomp.size()), const_cast<sock_filter*>(o.seccomp.data())};
    if (!o.seccomp.empty() && !hand_over_seccomp(o, filter, plan, r.output)) {
        close_child_ends(plan);
        return r;
    }
    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = spawn(plan);
    close_child_ends(plan);
    if (pid < 0 || plan.failed != ChildPlan::Failed::no) {
        const int err = pid < 0 ? errno : plan.failed_errno;
        if (pid > 0) waitpid(pid, nullptr, 0);
        r.output = pid < 0                                         ? std::string("vfork: ") + std::strerror(err)
                   : plan.failed == ChildPlan::Failed::chdir ? "cannot enter " + cwd + ": " + std::strerror(err)
                   : plan.failed == ChildPlan::Failed::seccomp
                       ? "the kernel refused the seccomp filter for " + argv[0] + " (" + std::strerror(err) + "), so it does not run"
                       : "cannot execute " + argv[0] + ": " + std::strerror(err);
        return r;
    }
    setpgid(pid, pid);
    const size_t slot = LiveGroups::add(pid);
    r.started = true;
    pump(o, pipes, pid, r, start);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    kill(-pid, SIGKILL);  // stragglers of the group
    LiveGroups::remove(slot);
    r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
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

void kill_children_on_termination_signals() {
    struct sigaction sa{};
    sa.sa_handler = &on_termination_signal;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
}

}  // namespace ascendopt
