// The evaluation memo (eval/eval_memo.h): a stored result comes back exactly, only
// machine-independent results are stored, and the key changes with anything that can change
// a result.
#include <gtest/gtest.h>

#include "eval/eval_memo.h"
#include "eval/evaluator.h"
#include "util/files.h"

using namespace ascendopt;

namespace {

struct TempMemo {
    fs::path dir = *make_temp_dir(fs::temp_directory_path(), "ascendopt-memo");
    ~TempMemo() { fs::remove_all(dir); }
};

EvalResult sample_result() {
    EvalResult r;
    r.op_name = "AddCustom";
    r.op_dir = "/somewhere/add_custom";
    r.status = EvalStatus::wrong_result;
    r.reason = "small: z differs";
    CaseResult ok;
    ok.name = "perf";
    ok.role = CaseRole::perf;
    ok.latency_us = 10.25;
    ok.latency_samples = {10.25};
    ok.twin = {{"block_dim", 8}};
    ok.outputs.push_back({"z", 4096, 0, 0.0, 0.0, std::nullopt});
    CaseResult wrong;
    wrong.name = "small";
    wrong.status = EvalStatus::wrong_result;
    wrong.reason = "z differs";
    wrong.outputs.push_back({"z", 99, 3, 2.5, 0.5, Mismatch{"z", 7, {7}, "", 1.0, 3.5}});
    r.cases = {ok, wrong};
    r.build_seconds = 1.5;
    return r;
}

Case sample_case(const fs::path& golden) {
    Case c;
    c.name = "perf";
    c.role = CaseRole::perf;
    c.inputs = {TensorSpec{"x", DType::f16, {4096}}};
    c.outputs = {TensorSpec{"z", DType::f16, {4096}}};
    c.golden = {GoldenSpec::Kind::python, golden.string(), "golden"};
    return c;
}

}  // namespace

TEST(EvalMemo, AStoredResultComesBackExactly) {
    TempMemo t;
    EvalMemo memo(t.dir);
    const EvalResult r = sample_result();
    memo.store("k1", r);
    auto back = memo.find("k1");
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(to_json(*back), to_json(r));
    EXPECT_FALSE(memo.find("k2").has_value());
}

// Check cases keep their verdict and counts but not their per-block timing: the perf cases'
// profile is what searches read, and the breakdown is most of a stored result's size.
TEST(EvalMemo, CheckCasesAreStoredWithoutTheirTimingBreakdown) {
    TempMemo t;
    EvalMemo memo(t.dir);
    EvalResult r = sample_result();
    r.cases[0].twin["timing"] = {{"blocks", nlohmann::json::array({1, 2, 3})}};
    r.cases[1].twin = {{"block_dim", 8}, {"timing", {{"blocks", nlohmann::json::array({1, 2, 3})}}}};
    memo.store("k", r);
    auto back = memo.find("k");
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(back->cases[0].twin, r.cases[0].twin) << "the perf case keeps everything";
    EXPECT_EQ(back->cases[1].twin, nlohmann::json({{"block_dim", 8}}));
}

TEST(EvalMemo, OnlyMachineIndependentResultsAreStored) {
    TempMemo t;
    EvalMemo memo(t.dir);
    EvalResult timed_out = sample_result();
    timed_out.status = EvalStatus::timeout;
    timed_out.cases[1].status = EvalStatus::timeout;
    memo.store("timeout", timed_out);
    EXPECT_FALSE(memo.find("timeout").has_value()) << "load can cause a timeout: never replay one";
    EvalResult crashed_defect = sample_result();
    crashed_defect.status = EvalStatus::ok;
    crashed_defect.cases[1].status = EvalStatus::run_failed;
    crashed_defect.cases[1].known_defect = "writes past z";
    memo.store("defect", crashed_defect);
    EXPECT_TRUE(memo.find("defect").has_value()) << "a known defect may fail any way";
}

TEST(EvalMemo, ACorruptFileIsAMissNotACrash) {
    TempMemo t;
    EvalMemo memo(t.dir);
    ASSERT_TRUE(write_atomic(t.dir / "bad.json", "{\"operator\": [[[["));
    EXPECT_FALSE(memo.find("bad").has_value());
    ASSERT_TRUE(write_atomic(t.dir / "odd.json", "{\"operator\": 3}"));
    EXPECT_FALSE(memo.find("odd").has_value());
}

TEST(EvalMemo, TheKeyFollowsEverythingThatCanChangeAResult) {
    TempMemo t;
    ASSERT_TRUE(write_atomic(t.dir / "golden.py", "def golden(x): return x\n"));
    const std::string host = "host-a";
    const std::vector<fs::path> kernels = {"/cache/builds/k1/op"};
    const std::vector<Case> cases = {sample_case(t.dir / "golden.py")};
    EvalOptions o;
    const std::string base = EvalMemo::key(host, kernels, cases, {}, o);
    EXPECT_EQ(base, EvalMemo::key(host, kernels, cases, {}, o)) << "deterministic";

    EXPECT_NE(base, EvalMemo::key("host-b", kernels, cases, {}, o)) << "sources";
    EXPECT_NE(base, EvalMemo::key(host, {"/cache/builds/k2/op"}, cases, {}, o)) << "kernel build";
    EXPECT_NE(base, EvalMemo::key(host, kernels, cases, {{"ASCENDOPT_TUNE_TILE", "64"}}, o)) << "host tunables";
    auto bigger = cases;
    bigger[0].inputs[0].shape = {4097};
    EXPECT_NE(base, EvalMemo::key(host, kernels, bigger, {}, o)) << "case shapes";
    EvalOptions seeded = o;
    seeded.seed = 7;
    EXPECT_NE(base, EvalMemo::key(host, kernels, cases, {}, seeded)) << "input seed";
    EvalOptions strict = o;
    strict.strict_gm = true;
    EXPECT_NE(base, EvalMemo::key(host, kernels, cases, {}, strict)) << "strictness";
    ASSERT_TRUE(write_atomic(t.dir / "golden.py", "def golden(x): return -x\n"));
    EXPECT_NE(base, EvalMemo::key(host, kernels, cases, {}, o)) << "the golden's contents";
}

// The hidden case's shape is drawn afresh in every evaluation: the key leaves the draw out, so
// an identical candidate still replays (the result of an earlier draw), and the stored result
// keeps the nonce that reproduces that draw, all 64 bits of it.
TEST(EvalMemo, TheHiddenCasesDrawIsNotPartOfTheKey) {
    TempMemo t;
    ASSERT_TRUE(write_atomic(t.dir / "golden.py", "def golden(x): return x\n"));
    const Case perf = sample_case(t.dir / "golden.py");
    Case drawn = perf;
    drawn.name = "hidden";
    drawn.role = CaseRole::check;
    drawn.hidden_nonce = 1;
    drawn.inputs[0].shape = drawn.outputs[0].shape = {100};
    Case redrawn = drawn;
    redrawn.hidden_nonce = 2;
    redrawn.inputs[0].shape = redrawn.outputs[0].shape = {200};
    const std::vector<fs::path> kernels = {"/cache/builds/k1/op"};
    const EvalOptions o;
    EXPECT_EQ(EvalMemo::key("h", kernels, {perf, drawn}, {}, o), EvalMemo::key("h", kernels, {perf, redrawn}, {}, o));
    EXPECT_NE(EvalMemo::key("h", kernels, {perf, drawn}, {}, o), EvalMemo::key("h", kernels, {perf}, {}, o)) << "a hidden case or none";
    EvalMemo memo(t.dir);
    EvalResult r = sample_result();
    r.cases[1].hidden_nonce = 18446744073709551557ull;
    memo.store("k", r);
    const auto back = memo.find("k");
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(back->cases[1].hidden_nonce, r.cases[1].hidden_nonce);
    EXPECT_EQ(to_json(r)["cases"][1]["hidden_nonce"], "18446744073709551557");
}

TEST(EvalMemo, SettingsThatMakeResultsVaryTurnItOff) {
    EvalOptions o;
    EXPECT_FALSE(EvalMemo::applies(o)) << "off unless a search asks for it";
    o.replay = true;
    EXPECT_TRUE(EvalMemo::applies(o));
    EvalOptions noisy = o;
    noisy.sim_noise_pct = 2;
    EXPECT_FALSE(EvalMemo::applies(noisy));
    EvalOptions traced = o;
    traced.trace_dir = "/tmp/traces";
    EXPECT_FALSE(EvalMemo::applies(traced));
    EvalOptions kept = o;
    kept.keep_work_dirs = true;
    EXPECT_FALSE(EvalMemo::applies(kept));
}
