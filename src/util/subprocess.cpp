#include "util/subprocess.h"

#include <fcntl.h>
#include <poll.h>
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

std::vector<std::string> merged_env(const std::map<std::string, std::string>& extra) {
    std::map<std::string, std::string> all;
    for (char** e = environ; e && *e; ++e) {
        const char* eq = std::strchr(*e, '=');
        if (eq) all[std::string(*e, size_t(eq - *e))] = eq + 1;
    }
    for (const auto& [k, v] : extra) all[k] = v;
    std::vector<std::string> out;
    for (const auto& [k, v] : all) out.push_back(k + "=" + v);
    return out;
}

[[noreturn]] void exec_child(const std::vector<std::string>& argv, const ProcessOptions& o, int out_fd,
                             const std::vector<std::string>& env) {
    setpgid(0, 0);
    dup2(out_fd, STDOUT_FILENO);
    dup2(out_fd, STDERR_FILENO);
    const int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) dup2(devnull, STDIN_FILENO);
    if (!o.cwd.empty() && chdir(o.cwd.c_str()) != 0) {
        dprintf(STDERR_FILENO, "cannot enter %s: %s\n", o.cwd.c_str(), std::strerror(errno));
        _exit(127);
    }
    if (o.memory_limit_bytes > 0) {
        rlimit lim{o.memory_limit_bytes, o.memory_limit_bytes};
        setrlimit(RLIMIT_AS, &lim);
    }
    std::vector<char*> args, envp;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    for (const auto& e : env) envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);
    execvpe(args[0], args.data(), envp.data());
    dprintf(STDERR_FILENO, "cannot execute %s: %s\n", args[0], std::strerror(errno));
    _exit(127);
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
    const auto env = merged_env(o.env);
    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid < 0) {
        r.output = std::string("fork: ") + std::strerror(errno);
        close(fds[0]);
        close(fds[1]);
        return r;
    }
    if (pid == 0) exec_child(argv, o, fds[1], env);
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
    if (r.started && r.exit_code == 127 && captured.str().find("cannot execute") != std::string::npos) r.started = false;
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
