// The pids cgroups of util/task_cap: with cgroup v1 each thread that starts children has a
// group of its own, which must go when the thread ends (a long rewind starts thousands of
// threads), and whatever is left must go when the process exits.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "util/subprocess.h"
#include "util/task_cap.h"

namespace ascendopt {
namespace {

namespace fs = std::filesystem;

const fs::path k_v1_pids = "/sys/fs/cgroup/pids";

// The groups process `pid` made under the v1 pids hierarchy (named ascendopt-<pid>-<n>).
size_t groups_of(pid_t pid) {
    const std::string prefix = "ascendopt-" + std::to_string(pid) + "-";
    size_t n = 0;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(k_v1_pids, ec))
        if (e.path().filename().string().rfind(prefix, 0) == 0) ++n;
    return n;
}

// Whether this machine gives threads groups of their own (cgroup v1 with a writable pids hierarchy).
bool per_thread_groups() { return tasks_capped() && ::access(k_v1_pids.c_str(), W_OK) == 0; }

void run_capped_children_on_threads(int threads) {
    std::vector<std::thread> pool;
    std::vector<int> exit_codes(size_t(threads), -1);
    for (int i = 0; i < threads; ++i)
        pool.emplace_back([&, i] { exit_codes[size_t(i)] = run_process({"/bin/true"}, {.max_tasks = 8}).exit_code; });
    for (auto& t : pool) t.join();
    for (int code : exit_codes) EXPECT_EQ(code, 0);
}

TEST(TaskCap, AThreadsGroupIsRemovedWhenTheThreadEnds) {
    if (!tasks_capped()) GTEST_SKIP() << "no pids cgroup on this machine";
    if (!per_thread_groups()) GTEST_SKIP() << "cgroup v2: children join pooled groups, threads have none of their own";
    const size_t before = groups_of(::getpid());
    for (int round = 0; round < 3; ++round) {
        run_capped_children_on_threads(6);
        EXPECT_EQ(groups_of(::getpid()), before) << "round " << round << ": groups of ended threads are still there";
    }
}

// At exit the groups still in use (the main thread's, here) are removed too. The process is a
// forked child whose thread inherited its parent's group: its runs make a group of their own
// (the inherited one holds the parent's thread, which a run's cleanup would kill as a leftover).
TEST(TaskCap, NoGroupOutlivesTheProcess) {
    if (!per_thread_groups()) GTEST_SKIP() << "no per-thread pids cgroups on this machine";
    ASSERT_TRUE(run_process({"/bin/true"}, {.max_tasks = 8}).succeeded());  // this thread joins a group
    std::fflush(nullptr);  // the child's exit must not write this process's buffered output again
    const pid_t child = ::fork();
    if (child == 0) {
        const bool ran = run_process({"/bin/true"}, {.max_tasks = 8}).succeeded();
        std::thread([] { (void)run_process({"/bin/true"}, {.max_tasks = 8}); }).join();
        std::exit(ran && groups_of(::getpid()) >= 1 ? 0 : 3);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the child made no group of its own: " << status;
    EXPECT_EQ(groups_of(child), 0u) << "groups of an ended process are left under " << k_v1_pids;
}

}  // namespace
}  // namespace ascendopt
