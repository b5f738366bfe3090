// --executor slurm (issue 25, docs/cluster.md) for the commands whose work splits into
// independent jobs: bench (a job per method, operator and seed) and rewind (a job per
// operator). The unfinished jobs become one Slurm job array. Each task reruns the command's
// own line with `--task-list L --task-index $SLURM_ARRAY_TASK_ID` on its node, against the
// shared output folder: one job, resumed from its stores when the task was preempted or killed
// before. The parent waits with progress fed by the jobs' result files (squeue only every few
// seconds, for pending/running counts and for tasks that ended), then merges by reading every
// job's result back, as the local executor files them. A parent that was interrupted attaches,
// when run again, to the array it submitted if that is still queued; otherwise only the jobs
// without a result are submitted.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cluster/slurm.h"
#include "util/result.h"

namespace ascendopt {

// The executor options of a command: where its jobs run, and, in a cluster task, the one job
// it runs.
struct ExecutorOptions {
    std::string executor = "local";
    std::string task_list;  // non-empty: this process is a cluster task
    std::optional<size_t> task_index;
    bool is_task() const { return !task_list.empty(); }
};

// --executor local|slurm, and the hidden-in-spirit "Cluster tasks" options the tasks run with.
// `jobs` names what one task runs, for --help ("(method, operator, seed) job").
void add_executor_options(CLI::App& cmd, ExecutorOptions& o, const std::string& jobs);

// The job a cluster task runs: line `task_index` of the task list (a job key per line).
Result<std::string> task_job_key(const ExecutorOptions& o);

// What each cluster task runs: this very command line (by the absolute path of this binary),
// without --executor, so that the task runs its job here and now.
std::vector<std::string> task_command();

struct SlurmArray {
    std::filesystem::path out;  // the command's output folder; slurm/ (task lists, logs) goes under it
    std::string name;           // the array's Slurm job name
    std::vector<std::string> keys;  // every job of the work, in order (a line of a task list each)
    std::function<bool(const std::string& key)> finished;  // the job's result is there
    SlurmResources resources;
    std::vector<std::string> task_command;  // to which --task-list L --task-index I are added
    bool quiet = false;
    double poll_seconds = 2;         // the result files
    double queue_poll_seconds = 10;  // squeue
};

struct SlurmOutcome {
    std::string job_id;  // empty: nothing was left to run
    size_t tasks = 0;
    bool attached = false;            // the array of an earlier parent, still queued
    std::vector<std::string> failed;  // "<job>: Slurm task <id>_<i> ended without a result; its log: <path>"
};

// Runs the unfinished jobs on Slurm and waits for them. An error when sbatch or squeue is
// missing (Error::missing_tool) or refuses (its words).
Result<SlurmOutcome> run_on_slurm(const SlurmArray& array);

}  // namespace ascendopt
