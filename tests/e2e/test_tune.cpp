// `ascendopt tune`: a tuned operator that passes eval, the same result for the same seed, and
// a run killed with SIGKILL that resumes to the same result as an uninterrupted one.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "cli_runner.h"
#include "util/sqlite.h"

using namespace ascendopt::e2e;

namespace {

// Every evaluation run for real unless `replay`: these tests are about the search itself.
std::vector<std::string> tune_args(const fs::path& out, bool replay = false) {
    std::vector<std::string> a = {"tune", "ops/exp_custom", "--budget", "8", "--strategy", "ga", "--seed", "5", "--out", out.string(), "--json", "-q"};
    if (!replay) a.push_back("--no-replay");
    return a;
}

}  // namespace

// The second run uses one worker instead of the machine's cores: the search must not depend on it.
TEST(Tune, SameSeedSameResultAndTheTunedOperatorPasses) {
    TempDir d;
    const auto a = run_cli(tune_args(d.path / "a"));
    auto one_worker = tune_args(d.path / "b");
    one_worker.insert(one_worker.end(), {"-j", "1"});
    const auto b = run_cli(one_worker);
    ASSERT_EQ(a.exit_code, 0) << a.output;
    ASSERT_EQ(b.exit_code, 0) << b.output;
    const auto ja = json_of(a), jb = json_of(b);
    EXPECT_EQ(ja["best_config"], jb["best_config"]);
    EXPECT_EQ(ja["best_latency"], jb["best_latency"]);
    EXPECT_EQ(ja["proposals"], jb["proposals"]);
    EXPECT_EQ(ja["evaluations"], 8);
    EXPECT_LE(ja["best_latency"].get<double>(), ja["baseline_latency"].get<double>());
    EXPECT_TRUE(fs::exists(d.path / "a" / "run.db"));
    const auto eval = run_cli({"eval", ja["tuned_operator"].get<std::string>(), "-q"});
    EXPECT_EQ(eval.exit_code, 0) << eval.output;
}

TEST(Tune, Kill9ThenRerunEndsLikeAnUninterruptedRun) {
    TempDir d;
    const auto whole = run_cli(tune_args(d.path / "whole"));
    ASSERT_EQ(whole.exit_code, 0) << whole.output;
    // A second tune, killed (SIGKILL to its group) once it has committed two evaluations.
    const fs::path store = d.path / "killed" / "run.db";
    ASSERT_TRUE(kill9_partway(tune_args(d.path / "killed"), {}, d.path / "killed.log",
                              [&] { return count_rows(store, "SELECT COUNT(*) FROM evaluations") >= 2; }))
        << "the run ended before it could be killed";
    const auto resumed = run_cli(tune_args(d.path / "killed"));
    ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
    const auto a = json_of(whole), b = json_of(resumed);
    EXPECT_EQ(a["best_config"], b["best_config"]);
    EXPECT_EQ(a["best_latency"], b["best_latency"]);
    EXPECT_EQ(b["evaluations"], 8) << "no evaluation lost or repeated";
    EXPECT_GT(b["cache_hits"].get<int>(), 0) << "the resumed run reused what the killed one committed";
}

// A second search over the same operator replays what the first measured (eval_memo.h): the
// same budget is spent and the same result found, without running the cases again.
TEST(Tune, ASecondSearchReplaysIdenticalEvaluations) {
    TempDir d;
    const auto first = run_cli(tune_args(d.path / "first", true));
    const auto second = run_cli(tune_args(d.path / "second", true));
    const auto fresh = run_cli(tune_args(d.path / "fresh", false));
    ASSERT_EQ(first.exit_code, 0) << first.output;
    ASSERT_EQ(second.exit_code, 0) << second.output;
    ASSERT_EQ(fresh.exit_code, 0) << fresh.output;
    const auto a = json_of(first), b = json_of(second), c = json_of(fresh);
    EXPECT_EQ(b["evaluations"], 8) << "a replay still spends budget";
    EXPECT_GT(b["replayed"].get<int>(), 0);
    EXPECT_EQ(c["replayed"], 0) << "--no-replay runs every evaluation";
    for (const auto* j : {&b, &c}) {
        EXPECT_EQ(a["best_config"], (*j)["best_config"]);
        EXPECT_EQ(a["best_latency"], (*j)["best_latency"]);
        EXPECT_EQ(a["proposals"], (*j)["proposals"]);
    }
}

TEST(Tune, BadStrategyIsBadInput) {
    TempDir d;
    const auto r = run_cli({"tune", "ops/exp_custom", "--strategy", "annealing", "--out", (d.path / "x").string()});
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("unknown strategy 'annealing'"), std::string::npos) << r.output;
}

// Declared constraints reject configurations without spending budget; a constant with no
// effect is screened out of the search.
TEST(Tune, ConstraintsAndScreening) {
    TempDir d;
    OperatorCopy op("exp_custom");
    op.edit("op_kernel/exp_custom.cpp", "constexpr int32_t BUFFER_NUM = 2;",
            "constexpr int32_t BUFFER_NUM = 2;\n// ascendopt: constraint BUFFER_NUM <= 2");
    op.edit("op_host/exp_custom.cpp", "constexpr uint32_t TILE_BYTES = 16 * 1024;",
            "constexpr uint32_t TILE_BYTES = 16 * 1024;\nconstexpr uint32_t NO_EFFECT = 64;");
    op.edit("op_host/exp_custom.cpp", "    ExpCustomTilingData tiling;", "    ExpCustomTilingData tiling;\n    (void)NO_EFFECT;");
    const auto r = run_cli({"tune", op.dir().string(), "--budget", "10", "--search-seed", "2", "--out", (d.path / "c").string(), "--json", "-q"});
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto doc = json_of(r);
    EXPECT_GT(doc["rejected_by_constraints"].get<int>(), 0) << doc.dump(2);
    EXPECT_LE(doc["best_config"]["BUFFER_NUM"].get<int>(), 2);
    EXPECT_EQ(doc["evaluations"], 10);
    bool screened_out = false;
    for (const auto& t : doc["tunables"])
        if (t["name"] == "NO_EFFECT") screened_out = !t["searched"].get<bool>();
    EXPECT_TRUE(screened_out) << doc["tunables"].dump(2);
}

// The preflight rejects, without spending budget, configurations whose tiling asks for more
// UB than a core has or for more blocks than the SoC has vector cores; none reaches the run store.
TEST(Tune, PreflightRejectsCertainFailuresForFree) {
    TempDir d;
    OperatorCopy op("exp_custom");
    op.edit("op_kernel/exp_custom.cpp", "constexpr int32_t BUFFER_NUM = 2;",
            "constexpr int32_t BUFFER_NUM = 2;\n// ascendopt: constraint BUFFER_NUM == 2");
    op.edit("op_host/exp_custom.cpp", "constexpr uint32_t TILE_BYTES = 16 * 1024;",
            "constexpr uint32_t TILE_BYTES = 16 * 1024;\nconstexpr uint32_t CORE_SCALE = 1;  // ascendopt: tunable values=1,2");
    op.edit("op_host/exp_custom.cpp", "context->SetBlockDim(cores);", "context->SetBlockDim(cores * CORE_SCALE);");
    const auto r = run_cli({"tune", op.dir().string(), "--strategy", "exhaustive", "--budget", "6", "--out", (d.path / "p").string(), "--json", "-q"});
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto doc = json_of(r);
    // TILE_BYTES has 7 values, of which 64 KiB and 128 KiB overflow UB with two buffers (256 KiB
    // > 192 KiB); CORE_SCALE 2 asks for 96 blocks. That leaves 5 configurations to evaluate.
    EXPECT_EQ(doc["evaluations"], 5) << doc.dump(2);
    EXPECT_EQ(doc["rejected_by_preflight"], 9) << doc.dump(2);
    std::string reasons = doc["preflight_rejections"].dump();
    EXPECT_NE(reasons.find("InitBuffer"), std::string::npos) << reasons;
    EXPECT_NE(reasons.find("exceeds the 48 vector cores"), std::string::npos) << reasons;
    EXPECT_EQ(doc["best_config"]["CORE_SCALE"], 1);
    auto db = ascendopt::Db::open(d.path / "p" / "run.db");
    ASSERT_TRUE(db);
    auto q = db->prepare("SELECT COUNT(*) FROM evaluations WHERE status != 'ok'");
    ASSERT_TRUE(q && q->step().ok());
    EXPECT_EQ(q->column_int(0), 0);
}
