// What ascendopt says to Slurm and reads back, as data (cluster/slurm.h): the job array's
// sbatch line, the task script (run here by bash, so its quoting is checked for real), the job
// id, and squeue's task states, folded pending ranges included.
#include <gtest/gtest.h>

#include "cluster/slurm.h"
#include "util/files.h"
#include "util/subprocess.h"

namespace ascendopt {
namespace {

namespace fs = std::filesystem;

TEST(Slurm, TheArrayJobsCommandLineCarriesTheResources) {
    SlurmResources r;
    r.cpus_per_task = 4;
    r.time_limit = "2:00:00";
    r.partition = "npu";
    r.account = "kernels";
    r.extra = {"--qos=low", "--gres=npu:1"};
    auto argv = sbatch_argv(r, {"/shared/study/slurm/task.sh", "/shared/study/slurm/logs", "ascendopt-bench", 12});
    ASSERT_TRUE(argv) << argv.error().message;
    EXPECT_EQ(*argv, (std::vector<std::string>{"sbatch", "--parsable", "--job-name=ascendopt-bench", "--array=0-11", "--cpus-per-task=4",
                                               "--output=/shared/study/slurm/logs/%A_%a.log", "--open-mode=append", "--requeue",
                                               "--time=2:00:00", "--partition=npu", "--account=kernels", "--qos=low", "--gres=npu:1",
                                               "/shared/study/slurm/task.sh"}));
    SlurmResources defaults;
    auto plain = sbatch_argv(defaults, {"t.sh", "logs", "j", 1});
    ASSERT_TRUE(plain);
    EXPECT_EQ(plain->size(), 9u) << "no time, partition or account unless given";
    EXPECT_FALSE(sbatch_argv(defaults, {"t.sh", "logs", "j", 0}));
    r.time_limit = "two hours";
    auto bad = sbatch_argv(r, {"t.sh", "logs", "j", 1});
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("'two hours' is not one sbatch reads"), std::string::npos) << bad.error().message;
}

TEST(Slurm, TimeLimitsInEveryFormSbatchReads) {
    for (const char* ok : {"90", "30:00", "4:00:00", "1-12", "1-12:30", "1-00:00:00"}) EXPECT_TRUE(valid_slurm_time(ok)) << ok;
    for (const char* bad : {"", "1h", "4:00:00:00", "-1", "1-", "a-1"}) EXPECT_FALSE(valid_slurm_time(bad)) << bad;
}

TEST(Slurm, TheJobIdIsReadFromParsableOutput) {
    EXPECT_EQ(*parse_sbatch_job_id("4242\n"), "4242");
    EXPECT_EQ(*parse_sbatch_job_id("4242;cluster-a\n"), "4242");
    auto bad = parse_sbatch_job_id("sbatch: error: Batch job submission failed: Invalid partition name specified\n");
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("Invalid partition name"), std::string::npos);
}

// The script runs the command with the task's index, words kept whole whatever they hold.
TEST(Slurm, TheTaskScriptPassesEveryWordAndTheIndexThroughBash) {
    auto dir = make_temp_dir(fs::temp_directory_path(), "ascendopt-slurm-test");
    ASSERT_TRUE(dir);
    ScratchDir cleanup(*dir);
    const std::vector<std::string> command = {"printf", "[%s]", "a b", "it's", "$HOME", "\"q\"", "back\\slash"};
    ASSERT_TRUE(write_atomic(*dir / "task.sh", array_task_script(command)));
    auto r = run_process({"bash", (*dir / "task.sh").string()}, {.env = {{"SLURM_ARRAY_TASK_ID", "7"}}});
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_EQ(r.output, "[a b][it's][$HOME][\"q\"][back\\slash][7]");
}

TEST(Slurm, SqueueTaskStatesWithFoldedPendingRanges) {
    const std::string listed =
        "4242_0|RUNNING\n"
        "4242_1|COMPLETING\n"
        "4242_[2-4,7%2]|PENDING\n"
        "4242_5|REQUEUED\n"
        "4242_6|NODE_FAIL\n";
    auto states = parse_squeue_tasks(listed, "4242");
    ASSERT_TRUE(states) << states.error().message;
    const std::map<size_t, SlurmTaskState> expected = {{0, SlurmTaskState::running}, {1, SlurmTaskState::ending},
                                                       {2, SlurmTaskState::pending}, {3, SlurmTaskState::pending},
                                                       {4, SlurmTaskState::pending}, {5, SlurmTaskState::pending},
                                                       {6, SlurmTaskState::other},   {7, SlurmTaskState::pending}};
    EXPECT_EQ(*states, expected);
    EXPECT_TRUE(parse_squeue_tasks("", "4242")->empty()) << "every task has left the queue";
    auto other_job = parse_squeue_tasks("99_1|RUNNING\n", "4242");
    ASSERT_FALSE(other_job);
    EXPECT_NE(other_job.error().message.find("is not a task of job 4242"), std::string::npos);
    EXPECT_FALSE(parse_squeue_tasks("4242_x|RUNNING\n", "4242"));
    EXPECT_FALSE(parse_squeue_tasks("4242_[5-2]|PENDING\n", "4242"));
    EXPECT_EQ(squeue_argv("4242"), (std::vector<std::string>{"squeue", "-h", "-r", "-j", "4242", "-o", "%i|%T"}));
}

}  // namespace
}  // namespace ascendopt
