// bench --executor slurm on a real one-node Slurm cluster started for the test
// (tests/support/slurm-up.sh: Debian 12's slurmctld, slurmd and munge, everything in a temporary
// folder): the study's jobs run as tasks of a job array and give the local executor's results;
// a task cancelled part way is reported with its Slurm id and log, and the rerun resubmits it
// alone and ends with the same results, nothing evaluated twice. rewind --executor slurm runs
// an operator per task and files the same records as a local rewind.
#include <unistd.h>

#include <fstream>
#include <optional>
#include <sstream>

#include "cli_runner.h"

namespace ascendopt::e2e {
namespace {

class SlurmCluster {
public:
    SlurmCluster() {
        // Ports of this process's own, so that a second cluster of another test run cannot clash.
        const int base = 20000 + int(::getpid() % 20000) * 2;
        m_env = {{"CTLD_PORT", std::to_string(base)}, {"SLURMD_PORT", std::to_string(base + 1)}};
        const auto up = run_process({"bash", (source_dir() / "tests" / "support" / "slurm-up.sh").string(), m_dir.path.string(), "munge"},
                                    {.env = m_env, .timeout_seconds = 120});
        m_started = up.succeeded();
        m_why = up.output;
        m_env["SLURM_CONF"] = (m_dir.path / "slurm.conf").string();
    }
    ~SlurmCluster() {
        run_process({"bash", (source_dir() / "tests" / "support" / "slurm-down.sh").string(), m_dir.path.string()},
                    {.env = m_env, .timeout_seconds = 120});
    }
    bool started() const { return m_started; }
    const std::string& why() const { return m_why; }
    const std::map<std::string, std::string>& env() const { return m_env; }
    // squeue's lines for `job`, "id_index|STATE" each.
    std::string queue(const std::string& job) const {
        return run_process({"squeue", "-h", "-r", "-j", job, "-o", "%i|%T"}, {.env = m_env, .timeout_seconds = 30}).output;
    }

private:
    TempDir m_dir;
    std::map<std::string, std::string> m_env;
    bool m_started = false;
    std::string m_why;
};

bool slurm_installed() {
    std::error_code ec;
    return fs::exists("/usr/sbin/slurmctld", ec) && fs::exists("/usr/sbin/slurmd", ec) && fs::exists("/usr/sbin/munged", ec);
}

// A one-node cluster for each test, or the test is skipped with the reason; env() is the
// cluster's with this project's settings out of the way and one CPU per task.
class Slurm : public ::testing::Test {
protected:
    void SetUp() override {
        if (!slurm_installed()) GTEST_SKIP() << "Slurm is not installed (scripts/install-deps.sh --test installs slurmctld, slurmd and munge)";
        cluster.emplace();
        if (!cluster->started()) GTEST_SKIP() << "the one-node Slurm cluster did not start on this machine:\n" << cluster->why();
        env = cluster->env();
        env["ASCENDOPT_CONFIG"] = "/dev/null";
        env["ASCENDOPT_SLURM_CPUS_PER_TASK"] = "1";
    }
    std::optional<SlurmCluster> cluster;
    std::map<std::string, std::string> env;
    TempDir tmp;
};

// What a study's results say of each job, without what differs between two runs of it (wall
// times, folders).
nlohmann::json outcome(const fs::path& out) {
    const auto results = nlohmann::json::parse(*read_text(out / "results.json"));
    nlohmann::json jobs = nlohmann::json::array();
    for (const auto& op : results["methods"]["stage2"]["operators"])
        jobs.push_back({{"operator", op.value("operator", "")},
                        {"baseline_us", op.value("baseline_us", -1.0)},
                        {"evaluations_us", op.value("evaluations_us", nlohmann::json())},
                        {"failed", op.value("detail", nlohmann::json::object()).contains("error")}});
    return jobs;
}

// The first task squeue lists as running ("4242_1"), or "".
std::string running_task(const std::string& queue) {
    std::istringstream in(queue);
    for (std::string line; std::getline(in, line);)
        if (const size_t bar = line.find("|RUNNING"); bar != std::string::npos) return line.substr(0, bar);
    return "";
}

std::string job_of(const fs::path& out) {
    const auto doc = nlohmann::json::parse(*read_text(out / "slurm" / "array.json"));
    return doc.value("job_id", "");
}

TEST_F(Slurm, AStudyRunsAsAJobArrayAndSurvivesACancelledTask) {
    fs::create_directories(tmp.path / "suite");
    for (const char* op : {"exp_custom", "add_custom", "div_custom"})
        fs::copy(source_dir() / "ops" / op, tmp.path / "suite" / op, fs::copy_options::recursive);
    auto study = [&](const fs::path& out, std::vector<std::string> extra = {}) {
        std::vector<std::string> args = {"bench", (tmp.path / "suite").string(), "--methods", "stage2", "--budget", "4",
                                         "--out", out.string(), "--no-replay", "--parallel", "1"};
        args.insert(args.end(), extra.begin(), extra.end());
        return args;
    };
    const auto local = run_cli(study(tmp.path / "local"), env);
    ASSERT_EQ(local.exit_code, 0) << local.output;

    // The same study through Slurm: one task per job, the local executor's results.
    const auto slurm = run_cli(study(tmp.path / "slurm", {"--executor", "slurm"}), env);
    ASSERT_EQ(slurm.exit_code, 0) << slurm.output;
    EXPECT_NE(slurm.output.find("submitted Slurm job array"), std::string::npos) << slurm.output;
    EXPECT_EQ(outcome(tmp.path / "slurm"), outcome(tmp.path / "local"));
    const auto again = run_cli(study(tmp.path / "slurm", {"--executor", "slurm"}), env);
    ASSERT_EQ(again.exit_code, 0) << again.output;
    EXPECT_EQ(again.output.find("submitted Slurm job array"), std::string::npos) << "nothing left to submit:\n" << again.output;

    // A task cancelled while it runs: the parent reports it, with its Slurm id and log.
    const fs::path cut = tmp.path / "cut";
    Background parent(study(cut, {"--executor", "slurm"}), env, tmp.path / "parent.log");
    std::string running;
    ASSERT_TRUE(eventually(
        [&] {
            if (!fs::exists(cut / "slurm" / "array.json")) return false;
            running = running_task(cluster->queue(job_of(cut)));
            return !running.empty();
        },
        300))
        << *read_text(tmp.path / "parent.log");
    ASSERT_EQ(run_process({"scancel", running}, {.env = env, .timeout_seconds = 30}).exit_code, 0);
    ASSERT_TRUE(eventually([&] { return !parent.running(); }, 600)) << *read_text(tmp.path / "parent.log");
    const std::string log = *read_text(tmp.path / "parent.log");
    EXPECT_TRUE(WIFEXITED(parent.ended_status) && WEXITSTATUS(parent.ended_status) == 1) << log;
    EXPECT_NE(log.find("Slurm task " + running + " ended without a result; its log: "), std::string::npos) << log;

    // The rerun submits the cancelled job alone and ends as the uninterrupted study.
    const auto resumed = run_cli(study(cut, {"--executor", "slurm"}), env);
    ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
    EXPECT_NE(resumed.output.find("(1 tasks;"), std::string::npos) << "only the cancelled job is resubmitted:\n" << resumed.output;
    EXPECT_EQ(outcome(cut), outcome(tmp.path / "local"));
}

// A bank's records, without the run-store run their provenance names (a local rewind has one
// store for the suite, a cluster one a store per operator, so the runs are numbered apart).
nlohmann::json records_of(const fs::path& bank) {
    const auto exported = run_cli({"bank", "export", "--bank", bank.string()});
    auto records = nlohmann::json::parse(exported.output)["records"];
    for (auto& r : records)
        for (auto& p : r["provenance"]) p.erase("run");
    return records;
}

TEST_F(Slurm, ARewindRunsAnOperatorPerTaskAndFilesTheLocalRecords) {
    fs::create_directories(tmp.path / "pairs");
    for (const char* op : {"add_custom", "exp_custom"})  // strong/baseline pairs
        fs::copy(source_dir() / "ops" / op, tmp.path / "pairs" / op, fs::copy_options::recursive);
    auto rewind = [&](const std::string& name, std::vector<std::string> extra = {}) {
        std::vector<std::string> args = {"rewind", (tmp.path / "pairs").string(), "--bank", (tmp.path / (name + ".db")).string(), "--budget", "6",
                                         "--out", (tmp.path / name).string(), "--no-replay", "--json"};
        args.insert(args.end(), extra.begin(), extra.end());
        return args;
    };
    const auto local = run_cli(rewind("local"), env);
    ASSERT_EQ(local.exit_code, 0) << local.output;
    const auto slurm = run_cli(rewind("slurm", {"--executor", "slurm"}), env);
    ASSERT_EQ(slurm.exit_code, 0) << slurm.output;
    EXPECT_NE(slurm.output.find("(2 tasks;"), std::string::npos) << slurm.output;
    ASSERT_GT(json_of(local)["records"].get<int>(), 0) << local.output;
    EXPECT_EQ(json_of(slurm)["operators"], json_of(local)["operators"]) << "the same steps, and the records by their ids in the bank";
    EXPECT_EQ(records_of(tmp.path / "slurm.db"), records_of(tmp.path / "local.db"));

    // A report that is not one (a task cut off before it, a foreign file): the rerun resubmits
    // that operator alone, which resumes from its own run store (nothing evaluated again) and
    // files nothing twice.
    const fs::path add = tmp.path / "slurm" / "operators" / "add_custom";
    const int64_t evaluations = count_rows(add / "run.db", "SELECT COUNT(*) FROM evaluations");
    // Its records are an array, but a step has no outcome and the latency is missing: every
    // field the filing reads is checked, not only the records.
    std::ofstream(add / "report.json") << R"({"operator": "add_custom", "records": [1], "steps": [{"hunks": "1"}]})";
    const auto resumed = run_cli(rewind("slurm", {"--executor", "slurm"}), env);
    ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
    EXPECT_NE(resumed.output.find("(1 tasks;"), std::string::npos) << "only add_custom is resubmitted:\n" << resumed.output;
    EXPECT_EQ(count_rows(add / "run.db", "SELECT COUNT(*) FROM evaluations"), evaluations);
    EXPECT_EQ(records_of(tmp.path / "slurm.db"), records_of(tmp.path / "local.db"));
}

}  // namespace
}  // namespace ascendopt::e2e
