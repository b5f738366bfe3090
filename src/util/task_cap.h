// A cap on the tasks (processes and threads) of a child's whole process tree, through a pids
// cgroup (v1 `pids` hierarchy or v2 with the pids controller). Root is exempt from
// RLIMIT_NPROC, so for root this is the only cap that holds; where no cgroup can be made (not
// root, no pids controller) there is none, and tasks_capped() says so.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace ascendopt {

class TaskCap {
public:
    // A cap of `max_tasks` on the next child the calling thread starts, or null when cgroups are
    // not available here. With cgroup v1 the thread itself sits in its own group, which its
    // children are born into (procs_fd() is -1); with v2 the child joins an empty group.
    static std::unique_ptr<TaskCap> create(uint32_t max_tasks);
    // Kills what is left of the child's tree in the group; the group is kept for the next
    // create() (making and removing a cgroup costs milliseconds): with v1 the thread's own group
    // until the thread ends, with v2 a pool of idle groups until exit.
    ~TaskCap();
    TaskCap(const TaskCap&) = delete;
    TaskCap& operator=(const TaskCap&) = delete;

    // Open for writing: the child writes its own pid here before it execs (-1: nothing to do).
    int procs_fd() const { return m_procs_fd; }

private:
    TaskCap(std::string dir, int procs_fd, bool inherited) : m_dir(std::move(dir)), m_procs_fd(procs_fd), m_inherited(inherited) {}
    std::string m_dir;
    int m_procs_fd = -1;
    bool m_inherited = false;
};

// Whether TaskCap::create works on this machine (checked once).
bool tasks_capped();

}  // namespace ascendopt
