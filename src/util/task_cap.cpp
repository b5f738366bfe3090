#include "util/task_cap.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <vector>

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

// Whether `dir` is a group this process made (named ascendopt-<pid>-<n>). A forked child
// inherits its parent's lists and thread groups; they are the parent's to use and remove.
bool made_here(const std::string& dir) {
    const std::string mine = parent_dir() + "/ascendopt-" + std::to_string(::getpid()) + "-";
    return dir.rfind(mine, 0) == 0;
}

// The groups this process made and has not removed yet (a thread's group goes with its
// thread); at exit (when its threads are done) they are removed, the calling thread first
// moved back to the hierarchy's root.
class OurGroups {
public:
    void add(std::string dir) {
        std::lock_guard lock(m_mutex);
        m_dirs.push_back(std::move(dir));
    }
    std::string take_idle() {
        std::lock_guard lock(m_mutex);
        const auto d = std::find_if(m_idle.rbegin(), m_idle.rend(), made_here);
        if (d == m_idle.rend()) return "";
        std::string dir = std::move(*d);
        m_idle.erase(std::next(d).base());
        return dir;
    }
    void give_idle(std::string dir) {
        std::lock_guard lock(m_mutex);
        m_idle.push_back(std::move(dir));
    }
    // A group removed before exit (a thread's, when the thread ended).
    void forget(const std::string& dir) {
        std::lock_guard lock(m_mutex);
        std::erase(m_dirs, dir);
    }
    ~OurGroups() {
        write_small(parent_dir() + "/tasks", std::to_string(::gettid()));
        for (const auto& d : m_dirs)
            if (made_here(d)) ::rmdir(d.c_str());
    }

private:
    std::mutex m_mutex;
    std::vector<std::string> m_dirs, m_idle;
};

OurGroups& our_groups() {
    static OurGroups groups;
    return groups;
}

// A new group of ours under the hierarchy, or "".
std::string make_group() {
    static std::atomic<uint64_t> counter{0};
    static std::once_flag swept;
    std::call_once(swept, [] { sweep_stale(parent_dir()); });
    const std::string dir = parent_dir() + "/ascendopt-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
    if (::mkdir(dir.c_str(), 0755) != 0) return "";
    our_groups().add(dir);
    return dir;
}

bool ours(long tid) { return ::access(("/proc/self/task/" + std::to_string(tid)).c_str(), F_OK) == 0; }

// The tasks of `dir` that are not threads of this process: a child's tree.
std::vector<long> foreign_tasks(const std::string& dir) {
    std::istringstream ids(read_small(dir + "/tasks"));
    std::vector<long> foreign;
    for (long tid; ids >> tid;)
        if (!ours(tid)) foreign.push_back(tid);
    return foreign;
}

// Kills every task of `dir` that is not ours, until none is left; false when they would not go.
bool clear_foreign_tasks(const std::string& dir) {
    for (int attempt = 0; attempt < 50; ++attempt) {
        const auto foreign = foreign_tasks(dir);
        if (foreign.empty()) return true;
        for (long tid : foreign) ::kill(pid_t(tid), SIGKILL);
        ::usleep(2000);
    }
    return false;
}

// cgroup v1: the calling thread's own group, which it joins once. Its children are born in
// it, so a spawn costs no attach (an attach waits for an RCU grace period, milliseconds that
// Stage II would pay per evaluation). The group goes when the thread ends: no other thread can
// use it, and the worker pool starts threads per batch, so a long rewind would otherwise leave
// hundreds of groups until ascendopt exits.
class ThreadGroup {
public:
    // The group's folder; empty until the thread joins one, where threads cannot have groups of
    // their own (v2), after abandon(), and in a forked child: the group it inherited holds its
    // parent's thread, which the child's runs would count and kill as a leftover of theirs.
    const std::string& dir() {
        if (!made_here(m_dir)) m_dir.clear();
        return m_dir;
    }

    // Moves the calling thread into a new group of its own; false when none could be made.
    bool join_fresh() {
        std::string d = make_group();
        if (d.empty() || !write_small(d + "/tasks", std::to_string(::gettid()))) return false;
        m_dir = std::move(d);
        return true;
    }

    // After a run whose tasks would not die: the group is left to the exit cleanup with them,
    // and the next create() starts a fresh one.
    void abandon() { m_dir.clear(); }

    // Runs when the thread ends (for the main thread: in exit(), before OurGroups' cleanup).
    // A cgroup can only be removed once no task is in it, so the thread first moves back to the
    // hierarchy's root, then whatever is left of its children is killed, then the group goes.
    // Threads of ours started from this one and still running keep it busy: it is then left to
    // the exit cleanup.
    ~ThreadGroup() {
        if (dir().empty() || !write_small(parent_dir() + "/tasks", std::to_string(::gettid()))) return;
        if (clear_foreign_tasks(m_dir) && ::rmdir(m_dir.c_str()) == 0) our_groups().forget(m_dir);
    }

private:
    std::string m_dir;
};

ThreadGroup& thread_group() {
    thread_local ThreadGroup group;
    return group;
}

// Tasks the group still counts (pids.current), or -1.
long counted_tasks(const std::string& dir) {
    const std::string text = read_small(dir + "/pids.current");
    return text.empty() ? -1 : std::atol(text.c_str());
}

}  // namespace

std::unique_ptr<TaskCap> TaskCap::create(uint32_t max_tasks) {
    if (parent_dir().empty()) return nullptr;
    if (parent_dir() == "/sys/fs/cgroup/pids" && (!thread_group().dir().empty() || thread_group().join_fresh())) {
        // The group counts this thread, threads it started since, and the dead of earlier runs
        // until their parent reaps them (orphans wait for init): the child gets max_tasks more.
        // (Dead reaped during the run give it back their share: at worst the previous cap again.)
        const std::string& mine = thread_group().dir();
        const long counted = counted_tasks(mine);
        if (counted < 0 || !write_small(mine + "/pids.max", std::to_string(uint64_t(max_tasks) + uint64_t(counted)))) return nullptr;
        return std::unique_ptr<TaskCap>(new TaskCap(mine, -1, true));
    }
    std::string dir = our_groups().take_idle();
    if (dir.empty()) dir = make_group();
    if (dir.empty()) return nullptr;
    const int fd = write_small(dir + "/pids.max", std::to_string(max_tasks)) ? ::open((dir + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC) : -1;
    if (fd < 0) return nullptr;
    return std::unique_ptr<TaskCap>(new TaskCap(dir, fd, false));
}

TaskCap::~TaskCap() {
    if (m_procs_fd >= 0) ::close(m_procs_fd);
    const bool cleared = clear_foreign_tasks(m_dir);
    if (!m_inherited) {
        if (cleared) our_groups().give_idle(m_dir);
        return;
    }
    write_small(m_dir + "/pids.max", "max");  // the thread's group outlives the run, uncapped
    if (!cleared) thread_group().abandon();   // tasks that would not die: the next run starts afresh
}

bool tasks_capped() { return !parent_dir().empty(); }

}  // namespace ascendopt
