// The study's job runner on the fake evaluator: results filed by (method, operator), budgets
// kept, a finished study read back without a new evaluation, and a failing job filed as
// finding nothing while the others run.
#include <gtest/gtest.h>

#include <algorithm>

#include "study/study.h"
#include "support/fake_evaluator.h"
#include "support/scratch_test.h"
#include "util/file_lock.h"
#include "util/files.h"

namespace ascendopt {
namespace {

namespace fs = std::filesystem;
using testing::FakeEvaluator;
using testing::FakeVerdict;

// exp_custom passes (faster with larger tiles); clip_custom fails every case.
FakeVerdict verdict(const std::string& sources, const EvalRequest& r) {
    if (sources.find("ClipCustom") != std::string::npos) return FakeVerdict::fails(EvalStatus::run_failed, "segfault in the kernel");
    const auto tile = r.env.find("ASCENDOPT_TUNE_TILE_BYTES");
    return FakeVerdict::passes(tile == r.env.end() ? 10 : 160000.0 / std::atof(tile->second.c_str()));
}

class StudyOnFake : public testing::ScratchTest {
protected:
    void SetUp() override {
        ScratchTest::SetUp();
        const fs::path ops = fs::path(ASCENDOPT_TEST_SOURCE_DIR) / "ops";
        m_plan.targets = {{ops / "clip_custom", "clip_custom", "all"}, {ops / "exp_custom", "exp_custom", "all"}};
        m_plan.methods = {find_method("stage2")};
        m_plan.out = m_dir / "out";
        m_plan.budget = 5;
        m_plan.parallel = 2;
    }
    StudyPlan m_plan;
};

TEST_F(StudyOnFake, JobsAreFiledByMethodAndOperatorAndAFailureDoesNotStopTheOthers) {
    FakeEvaluator fake(verdict);
    auto r = run_study(m_plan, fake);
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->by_method.size(), 1u);
    const auto& runs = r->by_method[0].second;
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[0].op, "clip_custom");
    EXPECT_TRUE(runs[0].detail.contains("error")) << runs[0].detail.dump();
    EXPECT_EQ(runs[1].op, "exp_custom");
    EXPECT_FALSE(runs[1].detail.contains("error")) << runs[1].detail.dump();
    EXPECT_LE(runs[1].evaluations.size(), 5u) << "the budget holds";
    EXPECT_DOUBLE_EQ(runs[1].baseline_us, 160000.0 / 16384);  // the tile as written
    ASSERT_EQ(r->failures.size(), 1u);
    EXPECT_NE(r->failures[0].find("stage2 on clip_custom"), std::string::npos) << r->failures[0];
    EXPECT_FALSE(fs::exists(m_plan.out / "stage2" / "clip_custom" / "result.json")) << "a failed job is retried by the next run";
}

TEST_F(StudyOnFake, AFinishedJobIsReadBackWithoutEvaluatingAgain) {
    m_plan.targets.erase(m_plan.targets.begin());  // exp_custom alone
    FakeEvaluator first(verdict);
    auto a = run_study(m_plan, first);
    ASSERT_TRUE(a) << a.error().message;
    EXPECT_GT(first.evaluations(), 0);
    FakeEvaluator second(verdict);
    auto b = run_study(m_plan, second);
    ASSERT_TRUE(b) << b.error().message;
    EXPECT_EQ(second.evaluations(), 0);
    EXPECT_EQ(b->by_method[0].second[0].evaluations, a->by_method[0].second[0].evaluations);
}

// A job whose folder another writer holds (a second bench on the same --out, a cluster task) is
// refused and left to it, not run twice into the same stores; the other jobs run, and once the
// writer is gone the job runs.
TEST_F(StudyOnFake, AJobAnotherWriterHoldsIsLeftToIt) {
    const fs::path held_dir = m_plan.out / "stage2" / "exp_custom";
    fs::create_directories(held_dir);
    {
        auto held = FileLock::acquire(held_dir / ".writer.lock");
        ASSERT_TRUE(held) << held.error().message;
        FakeEvaluator fake(verdict);
        auto r = run_study(m_plan, fake);
        ASSERT_TRUE(r) << r.error().message;
        ASSERT_EQ(r->failures.size(), 2u) << "clip_custom fails, exp_custom is held";
        const bool refused = std::any_of(r->failures.begin(), r->failures.end(), [](const std::string& f) {
            return f.find("stage2 on exp_custom: another ascendopt is running this job") != std::string::npos;
        });
        EXPECT_TRUE(refused) << r->failures[0] << "\n" << r->failures[1];
        EXPECT_FALSE(fs::exists(held_dir / "result.json"));
    }
    FakeEvaluator fake(verdict);
    auto r = run_study(m_plan, fake);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_TRUE(fs::exists(held_dir / "result.json"));
}

// With several seeds every (method, seed, operator) is a job of its own, in its own folder,
// and the runs come back seed by seed with the seed they ran with.
TEST_F(StudyOnFake, EachSeedIsAFullRepetitionInItsOwnFolder) {
    m_plan.targets.erase(m_plan.targets.begin());  // exp_custom alone
    m_plan.seeds = {3, 4};
    FakeEvaluator fake(verdict);
    auto r = run_study(m_plan, fake);
    ASSERT_TRUE(r) << r.error().message;
    const auto& runs = r->by_method[0].second;
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[0].seed, 3u);
    EXPECT_EQ(runs[1].seed, 4u);
    for (const char* seed : {"seed-3", "seed-4"}) EXPECT_TRUE(fs::exists(m_plan.out / "stage2" / seed / "exp_custom" / "result.json")) << seed;
    FakeEvaluator again(verdict);
    auto b = run_study(m_plan, again);
    ASSERT_TRUE(b) << b.error().message;
    EXPECT_EQ(again.evaluations(), 0) << "both seeds are read back";
    EXPECT_EQ(b->by_method[0].second[1].seed, 4u);
}

// Jobs run seed by seed and operator by operator with every method on it, so that a study
// stopped part way compares the methods on the same operators; they are filed by method.
TEST_F(StudyOnFake, JobsRunOperatorByOperatorWithEveryMethodAndAreFiledByMethod) {
    m_plan.methods = {find_method("stage2"), find_method("stage1-no-experience")};
    m_plan.seeds = {0, 1};
    m_plan.parallel = 1;
    std::vector<std::string> ran;
    m_plan.on_done = [&](size_t, size_t, const MethodRun& r, double) { ran.push_back(std::to_string(r.seed) + " " + r.op + " " + r.method); };
    FakeEvaluator fake(verdict);
    auto r = run_study(m_plan, fake);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(ran, (std::vector<std::string>{"0 clip_custom stage2", "0 clip_custom stage1-no-experience", "0 exp_custom stage2",
                                             "0 exp_custom stage1-no-experience", "1 clip_custom stage2", "1 clip_custom stage1-no-experience",
                                             "1 exp_custom stage2", "1 exp_custom stage1-no-experience"}));
    ASSERT_EQ(r->by_method.size(), 2u);
    for (const auto& [method, runs] : r->by_method) {
        ASSERT_EQ(runs.size(), 4u) << method;
        for (size_t k = 0; k < runs.size(); ++k) {
            EXPECT_EQ(runs[k].method, method);
            EXPECT_EQ(runs[k].seed, k / 2) << method;
            EXPECT_EQ(runs[k].op, k % 2 ? "exp_custom" : "clip_custom") << method;
        }
    }
}

// Stage II alone on an operator without tunable constants measures its baseline and finds
// nothing, instead of failing the job.
TEST_F(StudyOnFake, StageTwoOnAnOperatorWithoutTunablesMeasuresTheBaseline) {
    m_plan.targets = {{fs::path(ASCENDOPT_TEST_SOURCE_DIR) / "tests" / "ops" / "wild_eye", "wild_eye", "all"}};
    FakeEvaluator fake([](const std::string&, const EvalRequest&) { return FakeVerdict::passes(7); });
    auto r = run_study(m_plan, fake);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_TRUE(r->failures.empty()) << r->failures.front();
    const MethodRun& run = r->by_method[0].second[0];
    EXPECT_EQ(run.baseline_us, 7);
    ASSERT_EQ(run.evaluations.size(), 1u);
    EXPECT_EQ(run.detail.value("skipped", ""), "no tunable constants");
    EXPECT_EQ(fake.evaluations(), 1);
}

}  // namespace
}  // namespace ascendopt
