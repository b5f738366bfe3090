// What ascendopt says to Slurm and reads back from it, as data (issue 25; docs/cluster.md when
// the executor lands): the sbatch command line of a job array, the script each array task runs,
// the job id sbatch reports, and the state of each task as squeue lists it. Nothing here runs a
// command, so every line is unit-tested; written against Slurm 22.05 (Debian 12's slurm-wlm)
// and its documented options, which later releases keep.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "util/result.h"

namespace ascendopt {

// Per-task resources: flags, or ascendopt.toml's [slurm] table.
struct SlurmResources {
    int cpus_per_task = 2;
    std::string time_limit;  // sbatch --time ("90", "4:00:00", "1-00:00:00"); empty: the partition's default
    std::string partition;   // empty: the cluster's default
    std::string account;     // empty: the user's default
    std::vector<std::string> extra;  // further sbatch options, passed as given ("--qos=low", "--gres=npu:1")
};

// A time limit sbatch accepts: minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS.
bool valid_slurm_time(const std::string& text);

// One array job: `tasks` tasks (indices 0..tasks-1), each running `script` with its index in
// SLURM_ARRAY_TASK_ID, its output appended to <log_dir>/<job id>_<index>.log (appended: a task
// requeued after a preemption keeps what it printed before).
struct ArraySubmission {
    std::filesystem::path script;
    std::filesystem::path log_dir;
    std::string job_name;
    size_t tasks = 0;
    std::filesystem::path workdir;  // where each task starts (relative paths resolve from it); empty: sbatch's default
};

// `sbatch --parsable ...`; an error for a submission of no tasks.
Result<std::vector<std::string>> sbatch_argv(const SlurmResources& resources, const ArraySubmission& submission);

// sbatch --parsable prints "<job id>" or "<job id>;<cluster>".
Result<std::string> parse_sbatch_job_id(const std::string& output);

// The batch script: `command` with the task's index appended, run with exec so that the
// signals Slurm sends a task (SIGTERM before a kill, a preemption or the time limit) reach
// ascendopt itself.
std::string array_task_script(const std::vector<std::string>& command);

// `command` quoted for a POSIX shell, word by word.
std::string shell_quoted(const std::vector<std::string>& command);

enum class SlurmTaskState { pending, running, ending, other };
const char* slurm_task_state_name(SlurmTaskState s);

// `squeue -h -r -j <job id> -o %i|%T`: every task still known to the queue, one a line.
std::vector<std::string> squeue_argv(const std::string& job_id);

// The state of each task squeue lists by index ("4242_3|RUNNING"; a pending range that squeue
// folds, "4242_[4-7%2]|PENDING", gives each index in it). Tasks squeue no longer lists have
// ended, and the caller learns how from their results. An error names a line it cannot read.
Result<std::map<size_t, SlurmTaskState>> parse_squeue_tasks(const std::string& text, const std::string& job_id);

}  // namespace ascendopt
