#include "util/task_cap.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

namespace ascendopt {
namespace {

namespace fs = std::filesystem;

bool write_small(const fs::path& file, const std::string& text) {
    const int fd = ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) return false;
    const bool ok = ::write(fd, text.data(), text.size()) == ssize_t(text.size());
    ::close(fd);
    return ok;
}

std::string read_small(const fs::path& file) {
    std::ifstream in(file);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// Where groups of ours go: the v1 pids hierarchy, or the v2 root when it delegates pids.
std::string parent_dir() {
    static const std::string dir = [] {
        std::error_code ec;
        if (fs::is_directory("/sys/fs/cgroup/pids", ec) && ::access("/sys/fs/cgroup/pids", W_OK) == 0) return std::string("/sys/fs/cgroup/pids");
        if (read_small("/sys/fs/cgroup/cgroup.subtree_control").find("pids") != std::string::npos && ::access("/sys/fs/cgroup", W_OK) == 0)
            return std::string("/sys/fs/cgroup");
        return std::string();
    }();
    return dir;
}

// Groups a killed ascendopt left behind: named ascendopt-<pid>-<n>, removable once empty.
void sweep_stale(const std::string& parent) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(parent, ec)) {
        const std::string name = e.path().filename().string();
        if (name.rfind("ascendopt-", 0) != 0) continue;
        const pid_t owner = pid_t(std::atol(name.c_str() + 10));
        if (owner > 0 && (::kill(owner, 0) == 0 || errno == EPERM)) continue;  // its ascendopt still runs
        ::rmdir(e.path().c_str());
    }
}

}  // namespace

std::unique_ptr<TaskCap> TaskCap::create(uint32_t max_tasks) {
    const std::string parent = parent_dir();
    if (parent.empty()) return nullptr;
    static std::atomic<uint64_t> counter{0};
    static std::once_flag swept;
    std::call_once(swept, [&] { sweep_stale(parent); });
    const std::string dir = parent + "/ascendopt-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
    if (::mkdir(dir.c_str(), 0755) != 0) return nullptr;
    if (!write_small(dir + "/pids.max", std::to_string(max_tasks))) {
        ::rmdir(dir.c_str());
        return nullptr;
    }
    const int fd = ::open((dir + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
        ::rmdir(dir.c_str());
        return nullptr;
    }
    return std::unique_ptr<TaskCap>(new TaskCap(dir, fd));
}

TaskCap::~TaskCap() {
    if (m_procs_fd >= 0) ::close(m_procs_fd);
    for (int attempt = 0; attempt < 50 && ::rmdir(m_dir.c_str()) != 0 && errno == EBUSY; ++attempt) {
        std::istringstream pids(read_small(m_dir + "/cgroup.procs"));
        for (long pid; pids >> pid;) ::kill(pid_t(pid), SIGKILL);
        ::usleep(2000);
    }
}

bool tasks_capped() { return !parent_dir().empty(); }

}  // namespace ascendopt
