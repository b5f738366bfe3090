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
    // A fresh group allowing `max_tasks`, or null when cgroups are not available here.
    static std::unique_ptr<TaskCap> create(uint32_t max_tasks);
    ~TaskCap();  // kills what is left in the group and removes it
    TaskCap(const TaskCap&) = delete;
    TaskCap& operator=(const TaskCap&) = delete;

    // Open for writing: the child writes its own pid here before it execs.
    int procs_fd() const { return m_procs_fd; }

private:
    TaskCap(std::string dir, int procs_fd) : m_dir(std::move(dir)), m_procs_fd(procs_fd) {}
    std::string m_dir;
    int m_procs_fd = -1;
};

// Whether TaskCap::create works on this machine (checked once).
bool tasks_capped();

}  // namespace ascendopt
