// Offline rewind -> experience bank -> optimize, driven through the real binary: records with
// measured evidence from strong/baseline pairs, transfer of that experience to an operator
// that was not mined, and resumption after kill -9 without repeated or lost evaluations.
#include "cli_runner.h"

namespace ascendopt::e2e {
namespace {

// A suite of two strong/baseline pairs (copies, so tests never touch ops/).
fs::path make_suite(const fs::path& where) {
    fs::create_directories(where / "suite");
    for (const char* op : {"clip_custom", "exp_custom"}) fs::copy(source_dir() / "ops" / op, where / "suite" / op, fs::copy_options::recursive);
    return where / "suite";
}

class RewindOptimize : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        s_tmp = new TempDir;
        const fs::path suite = make_suite(s_tmp->path);
        s_bank = s_tmp->path / "bank.db";
        s_rewind = run_cli({"rewind", suite.string(), "--bank", s_bank.string(), "--out", (s_tmp->path / "rewind").string(), "--json", "-q"});
    }
    static void TearDownTestSuite() { delete s_tmp; }
    static TempDir* s_tmp;
    static fs::path s_bank;
    static ProcessResult s_rewind;
};
TempDir* RewindOptimize::s_tmp = nullptr;
fs::path RewindOptimize::s_bank;
ProcessResult RewindOptimize::s_rewind;

void OfflineRewindRecordsEachOptimizationWithItsEvidence(const TempDir* s_tmp, const fs::path& s_bank, const ProcessResult& s_rewind) {
    ASSERT_EQ(s_rewind.exit_code, 0) << s_rewind.output;
    const auto summary = json_of(s_rewind);
    EXPECT_GE(summary["records"].get<int>(), 3) << summary.dump(2);
    const auto list = run_cli({"bank", "list", "--bank", s_bank.string(), "--json"});
    ASSERT_EQ(list.exit_code, 0) << list.output;
    const auto records = nlohmann::json::parse(list.output.substr(list.output.find('[')));
    std::set<std::string> families;
    for (const auto& r : records) {
        families.insert(r["family"]);
        EXPECT_GT(r["slow_latency_us"].get<double>(), r["fast_latency_us"].get<double>() * 1.02) << r.dump(2);
        EXPECT_EQ(r["profile_before"]["latency_us"].get<double>(), r["slow_latency_us"].get<double>()) << "evidence is the measurement";
        EXPECT_NE(r["diff"].get<std::string>().find("@@"), std::string::npos);
        EXPECT_FALSE(r["bottleneck"].get<std::string>().empty());
        EXPECT_EQ(r["provenance"][0]["source"], "offline-rewind");
    }
    EXPECT_TRUE(families.count("kernel.memory.double_buffer"));
    EXPECT_TRUE(families.count("kernel.sync.elimination"));
    EXPECT_TRUE(families.count("tiling.tile_size"));
}

void ARerunRepeatsNoEvaluationAndAddsNoEvidence(const TempDir* s_tmp, const fs::path& s_bank, const ProcessResult& s_rewind) {
    ASSERT_EQ(s_rewind.exit_code, 0) << s_rewind.output;
    const fs::path store = s_tmp->path / "rewind" / "run.db";
    const int64_t evaluations = count_rows(store, "SELECT COUNT(*) FROM evaluations");
    const auto again = run_cli({"rewind", (s_tmp->path / "suite").string(), "--bank", s_bank.string(), "--out", (s_tmp->path / "rewind").string(), "--json", "-q"});
    ASSERT_EQ(again.exit_code, 0) << again.output;
    EXPECT_EQ(count_rows(store, "SELECT COUNT(*) FROM evaluations"), evaluations);
    EXPECT_EQ(json_of(again)["records"], json_of(s_rewind)["records"]);
    const auto list = run_cli({"bank", "list", "--bank", s_bank.string(), "--json"});
    for (const auto& r : nlohmann::json::parse(list.output.substr(list.output.find('[')))) EXPECT_EQ(r["support"], 1);
}

void OptimizeMakesAnUnminedOperatorFasterThroughTransferAndStage2(const TempDir* s_tmp, const fs::path& s_bank, const ProcessResult& s_rewind) {
    ASSERT_EQ(s_rewind.exit_code, 0) << s_rewind.output;
    const fs::path out = s_tmp->path / "optimize";
    const auto r = run_cli({"optimize", "suite/untuned/axpb_custom", "--bank", s_bank.string(), "--budget", "10", "--out", out.string(), "--json", "-q"});
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto s = json_of(r);
    EXPECT_LT(s["after_stage1_us"].get<double>(), s["baseline_us"].get<double>()) << s.dump(2);
    EXPECT_LE(s["after_stage2_us"].get<double>(), s["after_stage1_us"].get<double>());
    EXPECT_GT(s["speedup"].get<double>(), 1.05);
    ASSERT_FALSE(s["accepted_rewrites"].empty());
    EXPECT_EQ(s["accepted_rewrites"][0]["family"], "kernel.memory.double_buffer");
    EXPECT_LE(s["evaluations"]["stage1"].get<int>() + s["evaluations"]["stage2"].get<int>(), 10);
    // The optimized folder has the input's layout and passes on its own.
    const fs::path optimized = out / "optimized" / "axpb_custom";
    EXPECT_TRUE(fs::exists(optimized / "ascendopt.toml"));
    const auto eval = run_cli({"eval", optimized.string(), "-q"});
    EXPECT_EQ(eval.exit_code, 0) << eval.output;
}

void OptimizeResumesAfterKill9WithoutRepeatingEvaluations(const TempDir* s_tmp, const fs::path& s_bank, const ProcessResult& s_rewind) {
    ASSERT_EQ(s_rewind.exit_code, 0) << s_rewind.output;
    const fs::path whole = s_tmp->path / "whole", killed = s_tmp->path / "killed";
    const std::vector<std::string> common = {"optimize", "suite/untuned/axpb_custom", "--bank", s_bank.string(), "--budget", "8", "--json", "-q"};
    auto args = common;
    args.insert(args.end(), {"--out", whole.string()});
    const auto reference = run_cli(args);
    ASSERT_EQ(reference.exit_code, 0) << reference.output;
    // Kill the second run (SIGKILL to its process group) once it has committed two
    // evaluations, then finish it.
    args = common;
    args.insert(args.end(), {"--out", killed.string()});
    ASSERT_TRUE(kill9_partway(args, {}, s_tmp->path / "killed.log",
                              [&] { return count_rows(killed / "run.db", "SELECT COUNT(*) FROM evaluations") >= 2; }))
        << "the run ended before it could be killed";
    const auto resumed = run_cli(args);
    ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
    const auto a = json_of(reference), b = json_of(resumed);
    EXPECT_EQ(a["after_stage2_us"], b["after_stage2_us"]);
    EXPECT_EQ(a["evaluations"], b["evaluations"]);
    // Both stages spend from the one run in run.db: every evaluation once, none repeated.
    EXPECT_EQ(count_rows(killed / "run.db", "SELECT COUNT(*) FROM evaluations"),
              a["evaluations"]["stage1"].get<int64_t>() + a["evaluations"]["stage2"].get<int64_t>());
}

// One test process for all of them: the rewind they share takes most of a minute, and ctest
// starts every test in a process of its own.
TEST_F(RewindOptimize, RecordsRerunTransferAndResume) {
    {
        SCOPED_TRACE("OfflineRewindRecordsEachOptimizationWithItsEvidence");
        OfflineRewindRecordsEachOptimizationWithItsEvidence(s_tmp, s_bank, s_rewind);
    }
    {
        SCOPED_TRACE("ARerunRepeatsNoEvaluationAndAddsNoEvidence");
        ARerunRepeatsNoEvaluationAndAddsNoEvidence(s_tmp, s_bank, s_rewind);
    }
    {
        SCOPED_TRACE("OptimizeMakesAnUnminedOperatorFasterThroughTransferAndStage2");
        OptimizeMakesAnUnminedOperatorFasterThroughTransferAndStage2(s_tmp, s_bank, s_rewind);
    }
    {
        SCOPED_TRACE("OptimizeResumesAfterKill9WithoutRepeatingEvaluations");
        OptimizeResumesAfterKill9WithoutRepeatingEvaluations(s_tmp, s_bank, s_rewind);
    }
}

TEST(Rewind, RelativeOutputFoldersWork) {  // a bug once: case inputs under a relative --out were invisible in the sandbox
    TempDir tmp;
    fs::path suite = make_suite(tmp.path);
    fs::remove_all(suite / "exp_custom");
    std::vector<std::string> argv = {ASCENDOPT_TEST_BINARY, "rewind", suite.string(), "--bank", "bank.db", "--out", "rel-out", "-q"};
    if (!working_bubblewrap()) argv.push_back("--unsandboxed");
    const auto r = run_process(argv, {.cwd = tmp.path, .env = {{"ASCENDOPT_CACHE_DIR", ASCENDOPT_TEST_CACHE_DIR}}, .timeout_seconds = 600});
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("records from 1 pairs"), std::string::npos) << r.output;
}

// A kernel every core runs in full (tests/ops/replicated_copy) is split over the cores by the
// multicore record's rule: the record was mined elsewhere and its diff cannot apply here.
TEST(Optimize, AKernelEveryCoreRepeatsIsSplitByTheMulticoreRule) {
    TempDir tmp;
    fs::copy(source_dir() / "tests" / "ops" / "replicated_copy", tmp.path / "replicated_copy", fs::copy_options::recursive);
    const nlohmann::json rec = {{"operator", "SomewhereElse"},
                                {"family", "tiling.multicore"},
                                {"title", "Using all vector cores"},
                                {"bottleneck", "few blocks: SetBlockDim multicore GetBlockIdx"},
                                {"diff", "--- a/op_host/x.cpp\n+++ b/op_host/x.cpp\n@@ -1 +1 @@\n-SetBlockDim(1);\n+SetBlockDim(cores);\n"},
                                {"slow_latency_us", 20.0},
                                {"fast_latency_us", 5.0},
                                {"provenance", {{{"source", "test"}}}}};
    std::ofstream(tmp.path / "bank.json") << nlohmann::json{{"records", {rec}}}.dump();
    const std::string bank = (tmp.path / "bank.db").string();
    ASSERT_EQ(run_cli({"bank", "import", (tmp.path / "bank.json").string(), "--bank", bank}).exit_code, 0);
    const fs::path out = tmp.path / "optimize";
    const auto r = run_cli({"optimize", (tmp.path / "replicated_copy").string(), "--bank", bank, "--budget", "4", "--no-llm", "--out", out.string(), "--json", "-q"});
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto s = json_of(r);
    ASSERT_EQ(s["accepted_rewrites"].size(), 1u) << s.dump(2);
    EXPECT_EQ(s["accepted_rewrites"][0]["applied_as"], "rule split_over_cores");
    EXPECT_EQ(s["accepted_rewrites"][0]["record_operator"], "SomewhereElse");
    EXPECT_LT(s["after_stage1_us"].get<double>() * 4, s["baseline_us"].get<double>()) << "splitting the job that every core repeated saves far more than 4x";
    // The split operator passes every case on its own, the remainder tile included.
    const auto eval = run_cli({"eval", (out / "optimized" / "replicated_copy").string(), "-q"});
    EXPECT_EQ(eval.exit_code, 0) << eval.output;
}

TEST(Bank, ExportImportMergesAndBadInputIsAnError) {
    TempDir tmp;
    const auto missing = run_cli({"bank", "list", "--bank", (tmp.path / "none.db").string()});
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_NE(missing.output.find("ascendopt rewind"), std::string::npos) << missing.output;
    std::ofstream(tmp.path / "bad.json") << "{\"records\": [{\"operator\": \"x\"}]}";
    const auto bad = run_cli({"bank", "import", (tmp.path / "bad.json").string(), "--bank", (tmp.path / "b.db").string()});
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.output.find("record 1"), std::string::npos) << bad.output;
    const nlohmann::json rec = {{"operator", "op"}, {"family", "tiling.tile_size"}, {"title", "t"}, {"diff", "+x\n"},
                                {"slow_latency_us", 2.0}, {"fast_latency_us", 1.0}, {"provenance", {{{"source", "s"}}}}};
    std::ofstream(tmp.path / "good.json") << nlohmann::json{{"records", {rec}}}.dump();
    const std::string bank = (tmp.path / "b.db").string();
    EXPECT_NE(run_cli({"bank", "import", (tmp.path / "good.json").string(), "--bank", bank}).output.find("1 new"), std::string::npos);
    EXPECT_NE(run_cli({"bank", "import", (tmp.path / "good.json").string(), "--bank", bank}).output.find("1 merged"), std::string::npos);
    const auto exported = run_cli({"bank", "export", "--bank", bank});
    ASSERT_EQ(exported.exit_code, 0);
    EXPECT_EQ(json_of(exported)["records"].size(), 1u);
    const auto shown = run_cli({"bank", "show", "1", "--bank", bank});
    EXPECT_NE(shown.output.find("2.000 us -> 1.000 us (2.000x)"), std::string::npos) << shown.output;
}

}  // namespace
}  // namespace ascendopt::e2e

namespace ascendopt::e2e {
namespace {

// An operator that comes alone (no baseline/) is mined by the rules: single buffering and fewer
// cores measurably hurt add_custom on the twin, so each gives a record.
TEST(RewindRules, AnOperatorThatComesAloneGivesRecords) {
    TempDir tmp;
    fs::create_directories(tmp.path / "suite");
    fs::copy(source_dir() / "ops" / "add_custom", tmp.path / "suite" / "add_custom", fs::copy_options::recursive);
    fs::remove_all(tmp.path / "suite" / "add_custom" / "baseline");
    const auto r = run_cli({"rewind", (tmp.path / "suite").string(), "--mode", "rules", "--bank", (tmp.path / "bank.db").string(), "--out",
                            (tmp.path / "rw").string(), "--json", "-q"});
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto doc = json_of(r);
    ASSERT_EQ(doc["operators"].size(), 1u) << r.output;
    const auto& steps = doc["operators"][0]["steps"];
    ASSERT_EQ(steps.size(), 5u) << r.output;  // one per rule (agent/deopt.cpp)
    EXPECT_EQ(steps[0]["hunks"], "single_buffer");
    EXPECT_EQ(steps[4]["hunks"], "scalar_fills");
    EXPECT_NE(steps[0]["outcome"].get<std::string>().find("record #"), std::string::npos) << r.output;
    EXPECT_GE(doc["operators"][0]["records"].size(), 2u) << r.output;
    const auto shown = json_of(run_cli({"bank", "show", "1", "--bank", (tmp.path / "bank.db").string(), "--json"}));
    EXPECT_EQ(shown["family"], "kernel.memory.double_buffer");
    EXPECT_EQ(shown["provenance"][0]["source"], "rule-rewind");
    EXPECT_GT(shown["slow_latency_us"].get<double>(), shown["fast_latency_us"].get<double>());
}

}  // namespace
}  // namespace ascendopt::e2e
