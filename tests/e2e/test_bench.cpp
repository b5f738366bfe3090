// `ascendopt bench` and `ascendopt report`: every method on three operators at budget 12 with
// the scripted LLM server, the metrics recomputed here by hand from the per-evaluation
// latencies bench reports, a rerun that repeats nothing, the report's sections, and the errors.
#include <cmath>

#include "cli_runner.h"
#include "support/scripted_llm_server.h"

namespace ascendopt::e2e {
namespace {

const std::vector<double> k_ps = {1.0, 1.2, 1.4, 1.8, 2.0};

// Speedup over the first n evaluations of a per-operator entry, computed here independently.
double by_hand_speedup(const nlohmann::json& op, size_t n = SIZE_MAX) {
    const double baseline = op["baseline_us"];
    double best = baseline;
    size_t k = 0;
    for (const auto& e : op["evaluations_us"]) {
        if (k++ >= n) break;
        if (e.is_number()) best = std::min(best, e.get<double>());
    }
    return best < baseline ? baseline / best : 1.0;
}

double by_hand_gm(const std::vector<double>& v) {
    double log_sum = 0;
    for (double x : v) log_sum += std::log(x);
    return std::exp(log_sum / double(v.size()));
}

// Checks one group summary (GM and every fast_p) against the speedups it should summarize.
void expect_group(const nlohmann::json& g, const std::vector<double>& speedups, const std::string& what) {
    ASSERT_EQ(g["operators"].get<size_t>(), speedups.size()) << what;
    EXPECT_NEAR(g["gm"].get<double>(), by_hand_gm(speedups), 1e-12) << what;
    for (double p : k_ps) {
        const double share = double(std::count_if(speedups.begin(), speedups.end(), [p](double s) { return s > p; })) / double(speedups.size());
        char key[8];
        std::snprintf(key, sizeof key, "%.1f", p);
        EXPECT_DOUBLE_EQ(g["fast_p"][key].get<double>(), share) << what << " fast_" << key;
    }
}

// A model that knows one trick: it turns the first `BUFFER_NUM = 1` of the files it is shown
// into double buffering, and has nothing to offer once there is none.
testing::Scripted double_buffering_model(const nlohmann::json& body) {
    const std::string user = body["messages"].back()["content"];
    const size_t at = user.find("constexpr int32_t BUFFER_NUM = 1;");
    if (at == std::string::npos) return testing::Scripted::ok("I have no further change to suggest.");
    const size_t header = user.rfind("### ", at);
    const std::string file = user.substr(header + 4, user.find('\n', header) - header - 4);
    return testing::Scripted::ok(file + "\n<<<<<<< SEARCH\nconstexpr int32_t BUFFER_NUM = 1;\n=======\nconstexpr int32_t BUFFER_NUM = 2;\n>>>>>>> REPLACE\n");
}

class BenchStudy : public ::testing::Test {
protected:
    // A suite of three operators in two levels.
    void SetUp() override {
        const fs::path suite = tmp.path / "suite";
        fs::create_directories(suite);
        for (const char* op : {"clip_custom", "div_custom"}) fs::copy(source_dir() / "ops" / op, suite / op, fs::copy_options::recursive);
        fs::copy(source_dir() / "suite" / "untuned" / "axpb_custom", suite / "axpb_custom", fs::copy_options::recursive);
        std::ofstream(suite / "suite.toml") << "[levels]\nmined = [\"clip_custom\", \"div_custom\"]\nunmined = [\"axpb_custom\"]\n";
    }
    // A bank mined offline from add_custom alone, for the methods that use one.
    void mine_bank() {
        fs::create_directories(tmp.path / "pairs");
        fs::copy(source_dir() / "ops" / "add_custom", tmp.path / "pairs" / "add_custom", fs::copy_options::recursive);
        const auto rewind = run_cli({"rewind", (tmp.path / "pairs").string(), "--bank", bank().string(), "--out", (tmp.path / "rewind").string(), "-q"},
                                    {{"ASCENDOPT_CONFIG", "/dev/null"}});
        ASSERT_EQ(rewind.exit_code, 0) << rewind.output;
    }
    fs::path bank() const { return tmp.path / "bank.db"; }
    std::vector<std::string> bench_args(const std::string& methods, int budget) const {
        std::vector<std::string> args = {"bench", (tmp.path / "suite").string(), "--methods", methods, "--budget", std::to_string(budget),
                                         "--out", (tmp.path / "out").string(), "--json"};
        if (fs::exists(bank())) args.insert(args.end(), {"--bank", bank().string()});
        return args;
    }
    TempDir tmp;
};

TEST_F(BenchStudy, AllMethodsOnThreeOperatorsMatchMetricsComputedByHand) {
    ASSERT_NO_FATAL_FAILURE(mine_bank());
    testing::ScriptedLlmServer server;
    server.set_responder(double_buffering_model);
    const std::map<std::string, std::string> env = {{"ASCENDOPT_CONFIG", "/dev/null"}, {"ASCENDOPT_LLM_BASE_URL", server.base_url()},
                                                    {"ASCENDOPT_LLM_MODEL", "scripted"}};
    const auto args = bench_args("ascendopt,stage1,stage1-no-experience,stage2,best-of-n,openevolve", 12);
    const auto r = run_cli(args, env);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto results = nlohmann::json::parse(*read_text(tmp.path / "out" / "results.json"));
    ASSERT_EQ(results["methods"].size(), 6u);
    EXPECT_EQ(results["rewind_share"], 1) << "20/230 of 12, rounded";
    int64_t llm_calls = 0;
    for (const auto& [name, m] : results["methods"].items()) {
        ASSERT_EQ(m["operators"].size(), 3u) << name;
        std::vector<double> all;
        std::map<std::string, std::vector<double>> levels;
        for (const auto& op : m["operators"]) {
            EXPECT_LE(op["evaluations_us"].size(), 12u) << name << " spent more than its budget";
            EXPECT_GT(op["baseline_us"].get<double>(), 0);
            if (name == "ascendopt" || name == "stage1") {
                EXPECT_TRUE(op["evaluations_us"][0].is_null()) << name << ": the rewind share comes first";
            }
            all.push_back(by_hand_speedup(op));
            levels[op["level"].get<std::string>()].push_back(all.back());
        }
        const auto& summary = m["summary"];
        expect_group(summary["all"], all, name);
        ASSERT_EQ(summary["by_level"].size(), 2u) << name;
        for (const auto& [level, speedups] : levels) expect_group(summary["by_level"][level], speedups, name + " " + level);
        ASSERT_EQ(summary["progress_gm"].size(), 12u) << name;
        for (size_t k = 1; k <= 12; ++k) {
            std::vector<double> at_k;
            for (const auto& op : m["operators"]) at_k.push_back(by_hand_speedup(op, k));
            EXPECT_NEAR(summary["progress_gm"][k - 1].get<double>(), by_hand_gm(at_k), 1e-12) << name << " after " << k;
        }
        llm_calls += summary["llm"]["calls"].get<int64_t>();
    }
    EXPECT_EQ(llm_calls, int64_t(server.received().size())) << "every call the model answered is accounted to a method";
    EXPECT_EQ(results["methods"]["stage2"]["summary"]["llm"]["calls"], 0);
    // Double buffering pays where a core runs several tiles (div_custom, axpb_custom); clip_custom's
    // perf case is one DMA-bound tile per core, whose reads and writes share the core's port.
    for (const char* llm_method : {"best-of-n", "openevolve", "stage1-no-experience"})
        for (const auto& op : results["methods"][llm_method]["operators"])
            if (op["operator"] != "clip_custom") EXPECT_GT(by_hand_speedup(op), 1.0) << llm_method << " should find double buffering on " << op["operator"];
    EXPECT_GT(results["methods"]["openevolve"]["operators"][0]["detail"]["database"]["programs"].get<int>(), 1);

    // A rerun reads every job back: no evaluation and no LLM call is repeated.
    const size_t calls_before = server.received().size();
    const int64_t evaluations = count_rows(tmp.path / "out" / "openevolve" / "clip_custom" / "run.db", "SELECT COUNT(*) FROM evaluations");
    ASSERT_EQ(run_cli(args, env).exit_code, 0);
    EXPECT_EQ(server.received().size(), calls_before);
    EXPECT_EQ(count_rows(tmp.path / "out" / "openevolve" / "clip_custom" / "run.db", "SELECT COUNT(*) FROM evaluations"), evaluations);
    EXPECT_EQ(nlohmann::json::parse(*read_text(tmp.path / "out" / "results.json")), results);

    // The report: every table, three inline plots and the accepted rewrites as diffs.
    const auto report = run_cli({"report", (tmp.path / "out").string()});
    ASSERT_EQ(report.exit_code, 0) << report.output;
    const auto md = *read_text(tmp.path / "out" / "report.md");
    for (const char* section : {"## Results", "## Ablation", "## LLM calls, tokens and cost", "### clip_custom (mined)", "```diff", "+constexpr int32_t BUFFER_NUM = 2;"})
        EXPECT_NE(md.find(section), std::string::npos) << section;
    // Where each accepted rewrite came from, and what Stage II chose against what was written.
    EXPECT_NE(md.find("from record #"), std::string::npos);
    EXPECT_NE(md.find("ascendopt: best tiling configuration (as written: {"), std::string::npos);
    const auto html = *read_text(tmp.path / "out" / "report.html");
    size_t svgs = 0;
    for (size_t at = html.find("<svg"); at != std::string::npos; at = html.find("<svg", at + 1)) ++svgs;
    EXPECT_EQ(svgs, 3u);
    for (const char* id : {"<table id=\"results\">", "<table id=\"ablation\">", "<table id=\"llm\">", "<details>"}) EXPECT_NE(html.find(id), std::string::npos) << id;
}

TEST_F(BenchStudy, LlmMethodsAreSkippedWithoutAnLlmAndParallelJobsGiveTheSameResults) {
    auto args = bench_args("stage2,best-of-n", 3);
    args.insert(args.end(), {"--parallel", "1"});
    const auto serial = run_cli(args, {{"ASCENDOPT_CONFIG", "/dev/null"}});
    ASSERT_EQ(serial.exit_code, 0) << serial.output;
    EXPECT_NE(serial.output.find("skipping best-of-n: it needs an LLM"), std::string::npos) << serial.output;
    const auto first = nlohmann::json::parse(*read_text(tmp.path / "out" / "results.json"));
    ASSERT_EQ(first["methods"].size(), 1u);
    fs::remove_all(tmp.path / "out");
    args.back() = "3";
    ASSERT_EQ(run_cli(args, {{"ASCENDOPT_CONFIG", "/dev/null"}}).exit_code, 0);
    const auto second = nlohmann::json::parse(*read_text(tmp.path / "out" / "results.json"));
    EXPECT_EQ(second["methods"]["stage2"]["summary"], first["methods"]["stage2"]["summary"]);
}

TEST_F(BenchStudy, Kill9ThenRerunEndsLikeAnUninterruptedRun) {
    testing::ScriptedLlmServer server;
    server.set_responder(double_buffering_model);
    const std::map<std::string, std::string> env = {{"ASCENDOPT_CONFIG", "/dev/null"}, {"ASCENDOPT_LLM_BASE_URL", server.base_url()},
                                                    {"ASCENDOPT_LLM_MODEL", "scripted"}, {"ASCENDOPT_CACHE_DIR", ASCENDOPT_TEST_CACHE_DIR}};
    auto args = bench_args("openevolve,stage2", 8);
    const auto whole = run_cli(args, env);
    ASSERT_EQ(whole.exit_code, 0) << whole.output;
    const auto reference = nlohmann::json::parse(*read_text(tmp.path / "out" / "results.json"));
    fs::rename(tmp.path / "out", tmp.path / "whole");
    // SIGKILL to the process group once one operator's openevolve run has committed two
    // evaluations (and others are under way), then the same command again.
    const fs::path store = tmp.path / "out" / "openevolve" / "clip_custom" / "run.db";
    ASSERT_TRUE(kill9_partway(args, env, tmp.path / "killed.log", [&] { return count_rows(store, "SELECT COUNT(*) FROM evaluations") >= 2; }))
        << "the study ended before it could be killed";
    const auto resumed = run_cli(args, env);
    ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
    const auto results = nlohmann::json::parse(*read_text(tmp.path / "out" / "results.json"));
    for (const char* m : {"openevolve", "stage2"}) {
        for (size_t i = 0; i < 3; ++i)
            EXPECT_EQ(results["methods"][m]["operators"][i]["evaluations_us"], reference["methods"][m]["operators"][i]["evaluations_us"]) << m << " " << i;
        EXPECT_EQ(results["methods"][m]["summary"]["all"], reference["methods"][m]["summary"]["all"]) << m;
    }
}

TEST(Bench, AFailingOperatorIsReportedAndTheOthersStillRun) {
    TempDir tmp;
    for (const char* op : {"exp_custom", "sqrt_custom"}) fs::copy(source_dir() / "ops" / op, tmp.path / op, fs::copy_options::recursive);
    std::ofstream(tmp.path / "sqrt_custom" / "op_kernel" / "sqrt_custom.cpp", std::ios::app) << "\nthis does not compile;\n";
    const std::vector<std::string> args = {"bench", tmp.path.string(), "--methods", "stage2", "--budget", "2", "--out", (tmp.path / "out").string()};
    const auto r = run_cli(args, {{"ASCENDOPT_CONFIG", "/dev/null"}});
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find("1 of 2 jobs failed"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("stage2 on sqrt_custom"), std::string::npos) << r.output;
    const auto results = nlohmann::json::parse(*read_text(tmp.path / "out" / "results.json"));
    const auto& ops = results["methods"]["stage2"]["operators"];
    ASSERT_EQ(ops.size(), 2u);
    EXPECT_FALSE(ops[0]["detail"].contains("error"));
    EXPECT_GT(ops[0]["evaluations_us"].size(), 0u) << "exp_custom ran";
    EXPECT_TRUE(ops[1]["detail"].contains("error"));
    EXPECT_FALSE(fs::exists(tmp.path / "out" / "stage2" / "sqrt_custom" / "result.json")) << "a failed job is retried by the next run";
    ASSERT_EQ(run_cli({"report", (tmp.path / "out").string()}).exit_code, 0);
    EXPECT_NE(read_text(tmp.path / "out" / "report.md")->find("| stage2 | - | failed: "), std::string::npos);
}

// --seeds 3: three repetitions of Stage II with different search seeds; results.json gives the
// per-seed GMs, their geometric mean and a 95% interval that holds them, checked here by hand.
TEST(Bench, SeveralSeedsGiveAMeanAndAnInterval) {
    TempDir tmp;
    fs::copy(source_dir() / "ops" / "exp_custom", tmp.path / "exp_custom", fs::copy_options::recursive);
    const auto r = run_cli({"bench", tmp.path.string(), "--methods", "stage2", "--budget", "4", "--seeds", "3", "--out", (tmp.path / "out").string()},
                           {{"ASCENDOPT_CONFIG", "/dev/null"}});
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("3 seeds, [95% interval]"), std::string::npos) << r.output;
    const auto results = nlohmann::json::parse(*read_text(tmp.path / "out" / "results.json"));
    EXPECT_EQ(results["seeds"], nlohmann::json({0, 1, 2}));
    const auto& m = results["methods"]["stage2"];
    ASSERT_EQ(m["operators"].size(), 3u);
    std::vector<double> gms;
    for (size_t k = 0; k < 3; ++k) {
        EXPECT_EQ(m["operators"][k]["seed"], k);
        EXPECT_TRUE(fs::exists(tmp.path / "out" / "stage2" / ("seed-" + std::to_string(k)) / "exp_custom" / "result.json"));
        gms.push_back(by_hand_speedup(m["operators"][k]));
        EXPECT_NEAR(m["summary"]["seeds"][k]["gm"].get<double>(), gms.back(), 1e-12);
    }
    const auto& ci = m["summary"]["interval95"]["gm"];
    EXPECT_NEAR(ci["mean"].get<double>(), by_hand_gm(gms), 1e-12);
    EXPECT_NEAR(m["summary"]["all"]["gm"].get<double>(), by_hand_gm(gms), 1e-12);
    EXPECT_EQ(ci["seeds"], 3);
    for (double g : gms) {
        EXPECT_LE(ci["low"].get<double>(), g + 1e-12);
        EXPECT_GE(ci["high"].get<double>(), g - 1e-12);
    }
    ASSERT_EQ(run_cli({"report", (tmp.path / "out").string()}).exit_code, 0);
    EXPECT_NE(read_text(tmp.path / "out" / "report.md")->find("## Over seeds"), std::string::npos);
}

TEST(Bench, AnUnknownMethodIsAnErrorThatListsTheMethods) {
    const auto r = run_cli({"bench", "ops", "--methods", "magic", "--budget", "4"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.output.find("unknown method 'magic'"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("openevolve"), std::string::npos);
}

TEST(Bench, ASuiteFileNamingAMissingOperatorIsAnError) {
    TempDir tmp;
    fs::copy(source_dir() / "ops" / "exp_custom", tmp.path / "exp_custom", fs::copy_options::recursive);
    std::ofstream(tmp.path / "suite.toml") << "[levels]\nelementwise = [\"exp_custom\", \"nope_custom\"]\n";
    const auto r = run_cli({"bench", tmp.path.string(), "--methods", "stage2", "--budget", "4"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.output.find("names 'nope_custom', which is not an operator folder of the suite"), std::string::npos) << r.output;
}

TEST(Bench, ABudgetTheRewindShareLeavesTooLittleOfIsAnError) {
    const auto r = run_cli({"bench", "ops", "--methods", "stage2,ascendopt", "--budget", "3", "--rewind-share", "2"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.output.find("a budget of 3 leaves 1 evaluations to ascendopt after the rewind share of 2"), std::string::npos) << r.output;
}

TEST(Bench, AMissingBankIsAnErrorThatSaysHowToBuildOne) {
    TempDir tmp;
    const auto r = run_cli({"bench", "ops", "--methods", "ascendopt", "--budget", "30", "--bank", (tmp.path / "none.db").string()});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.output.find("ascendopt rewind ops --bank"), std::string::npos) << r.output;
}

}  // namespace
// A cluster task (cluster/slurm.h) runs the one job its line of the task list names, and leaves
// results.json to the process that merges; that process reads the task's result back as it is.
TEST(Bench, AClusterTaskRunsTheOneJobItsLineNames) {
    TempDir tmp;
    fs::copy(source_dir() / "ops" / "exp_custom", tmp.path / "exp_custom", fs::copy_options::recursive);
    const fs::path out = tmp.path / "out", list = tmp.path / "tasks.txt";
    std::ofstream(list) << "stage2/seed-1/exp_custom\nstage2/seed-0/exp_custom\n";
    const std::vector<std::string> study = {"bench", tmp.path.string(), "--methods", "stage2", "--budget", "4", "--seeds", "2", "--out", out.string()};
    auto with = [&](std::vector<std::string> extra) {
        auto args = study;
        args.insert(args.end(), extra.begin(), extra.end());
        return run_cli(args, {{"ASCENDOPT_CONFIG", "/dev/null"}});
    };
    const auto task = with({"--task-list", list.string(), "--task-index", "0"});
    ASSERT_EQ(task.exit_code, 0) << task.output;
    const fs::path ran = out / "stage2" / "seed-1" / "exp_custom" / "result.json";
    ASSERT_TRUE(fs::exists(ran)) << task.output;
    EXPECT_FALSE(fs::exists(out / "stage2" / "seed-0" / "exp_custom" / "result.json")) << "only the task's job runs";
    EXPECT_FALSE(fs::exists(out / "results.json")) << "merging is the parent's";
    const std::string saved = *read_text(ran);

    const auto past = with({"--task-list", list.string(), "--task-index", "2"});
    EXPECT_EQ(past.exit_code, 2) << past.output;
    EXPECT_NE(past.output.find("--task-index 2 is past the end of the task list"), std::string::npos) << past.output;

    const auto merged = with({});
    ASSERT_EQ(merged.exit_code, 0) << merged.output;
    EXPECT_EQ(*read_text(ran), saved) << "the task's result is read back, not run again";
    const auto results = nlohmann::json::parse(*read_text(out / "results.json"));
    EXPECT_EQ(results["methods"]["stage2"]["operators"].size(), 2u);
}

}  // namespace ascendopt::e2e
