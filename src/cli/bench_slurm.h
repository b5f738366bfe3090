// bench --executor slurm (issue 25, docs/cluster.md): the study's unfinished jobs become one
// Slurm job array. Each task runs `ascendopt bench <the same study> --task-list L --task-index
// $SLURM_ARRAY_TASK_ID` on its node against the shared output folder: one job, resumed from its
// stores when the task was preempted or killed before. The parent waits with progress fed by
// the jobs' result files (squeue only every few seconds, for pending/running counts and for
// tasks that ended), then merges exactly as the local executor does: by reading every job's
// result back. A parent that was interrupted attaches, when run again, to the array it
// submitted if that is still queued; otherwise only the jobs without a result are submitted.
#pragma once

#include <string>
#include <vector>

#include "cluster/slurm.h"
#include "study/study.h"

namespace ascendopt {

struct SlurmStudy {
    const StudyPlan* plan = nullptr;
    SlurmResources resources;
    std::vector<std::string> task_command;  // the task's argv, to which --task-list L --task-index I are added
    bool quiet = false;
    double poll_seconds = 2;         // the result files
    double queue_poll_seconds = 10;  // squeue
};

struct SlurmOutcome {
    std::string job_id;      // empty: nothing was left to run
    size_t tasks = 0;
    bool attached = false;   // the array of an earlier parent, still queued
    std::vector<std::string> failed;  // "<job>: Slurm task <id>_<i> ended without a result; its log: <path>"
};

// Runs the plan's unfinished jobs on Slurm and waits for them. An error when sbatch or squeue
// is missing (Error::missing_tool) or refuses (its words).
Result<SlurmOutcome> run_on_slurm(const SlurmStudy& study);

}  // namespace ascendopt
