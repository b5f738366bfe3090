// Stage II on the fake evaluator: the search over ops/exp_custom's tunables (TILE_BYTES on the
// host, reaching the operator through its environment; BUFFER_NUM in the kernel, baked into its
// source) against a latency the test knows in closed form.
#include <gtest/gtest.h>

#include <cstdlib>

#include "search/tuner.h"
#include "support/fake_evaluator.h"
#include "support/scratch_test.h"
#include "util/files.h"

namespace ascendopt {
namespace {

namespace fs = std::filesystem;
using testing::FakeEvaluator;
using testing::FakeVerdict;

int64_t tile_bytes(const EvalRequest& r) {
    const auto it = r.env.find("ASCENDOPT_TUNE_TILE_BYTES");
    return it == r.env.end() ? 16384 : std::atoll(it->second.c_str());
}

// Fastest at 8 KiB tiles, double buffered; tiles over 32 KiB do not fit (a certain failure).
FakeVerdict modelled(const std::string& sources, const EvalRequest& r) {
    const double kib = double(tile_bytes(r)) / 1024;
    if (kib > 32) return FakeVerdict::fails(EvalStatus::resource_exceeded, "UB overflow");
    const bool doubled = sources.find("BUFFER_NUM = 2") != std::string::npos;
    return FakeVerdict::passes(5 + (kib - 8) * (kib - 8) / 16 + (doubled ? 0 : 2));
}

class TunerOnFake : public testing::ScratchTest {
protected:
    void SetUp() override {
        ScratchTest::SetUp();
        auto op = load_operator(fs::path(ASCENDOPT_TEST_SOURCE_DIR) / "ops" / "exp_custom");
        ASSERT_TRUE(op) << op.error().message;
        m_op = *op;
    }

    Result<TuneResult> tune_with(FakeEvaluator& fake, const std::string& strategy, int64_t budget, const std::string& out = "run") {
        TuneOptions o;
        o.strategy = strategy;
        o.budget = budget;
        o.seed = 3;
        o.out_dir = m_dir / out;
        return tune(m_op, fake, o, [](const TuneProgress&) {});
    }

    OperatorSource m_op;
};

// --robust: two SoC variants, the nominal one and one where large DMA latency makes small tiles
// pay (the fake reads the variant's marker from the request).
EvalOptions robust_options() {
    EvalOptions o;
    o.robust = true;
    o.robust_variants = nlohmann::json::array({{{"label", "nominal"}, {"soc", {{"variant", 0}}}},
                                               {{"label", "mte.latency_cycles=high"}, {"soc", {{"variant", 1}}}}});
    return o;
}
bool at_high_latency(const EvalRequest& r) { return r.soc_description && r.soc_description->value("variant", 0) == 1; }

TEST_F(TunerOnFake, UnderRobustABestThatLosesAtOneEndOfARangeIsNotTaken) {
    FakeEvaluator fake(
        [](const std::string& sources, const EvalRequest& r) {
            FakeVerdict v = modelled(sources, r);
            if (at_high_latency(r) && tile_bytes(r) < 16384) v.latency_us += 20;  // small tiles lose there
            return v;
        },
        robust_options());
    auto r = tune_with(fake, "exhaustive", 1000);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->best, r->baseline) << "the original stands";
    EXPECT_EQ(r->best_us, r->baseline_us);
    EXPECT_NE(r->robust.find("not faster everywhere"), std::string::npos) << r->robust;
    EXPECT_NE(r->robust.find("at mte.latency_cycles=high"), std::string::npos) << r->robust;
}

TEST_F(TunerOnFake, UnderRobustTheNextFastestIsTakenWhenTheFastestIsNotRobust) {
    FakeEvaluator fake(
        [](const std::string& sources, const EvalRequest& r) {
            FakeVerdict v = modelled(sources, r);
            if (at_high_latency(r) && tile_bytes(r) == 8192) v.latency_us += 20;  // the nominal optimum loses there
            return v;
        },
        robust_options());
    auto r = tune_with(fake, "exhaustive", 1000);
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_TRUE(r->best_us && r->baseline_us);
    EXPECT_NE(r->best, r->baseline);
    EXPECT_GT(*r->best_us, 5) << "not the nominal optimum (8 KiB, double buffered: 5 us)";
    EXPECT_LT(*r->best_us, *r->baseline_us);
    EXPECT_NE(r->best.at("TILE_BYTES"), 8192);
    EXPECT_NE(r->robust.find("faster everywhere"), std::string::npos) << r->robust;
    EXPECT_NE(r->robust.find("the fastest configuration was not"), std::string::npos) << r->robust;
}

TEST_F(TunerOnFake, UnderRobustABestFasterEverywhereIsTaken) {
    FakeEvaluator fake(
        [](const std::string& sources, const EvalRequest& r) {
            FakeVerdict v = modelled(sources, r);
            if (at_high_latency(r)) v.latency_us *= 1.5;  // slower for everyone alike
            return v;
        },
        robust_options());
    auto r = tune_with(fake, "exhaustive", 1000);
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_TRUE(r->best_us);
    EXPECT_EQ(*r->best_us, 5);
    EXPECT_NE(r->robust.find("faster everywhere"), std::string::npos) << r->robust;
}

TEST_F(TunerOnFake, ExhaustiveSearchFindsTheOptimum) {
    FakeEvaluator fake(modelled);
    auto r = tune_with(fake, "exhaustive", 1000);
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_TRUE(r->best_us);
    EXPECT_EQ(*r->best_us, 5);
    EXPECT_EQ(r->best.at("TILE_BYTES"), 8192);
    EXPECT_EQ(r->best.at("BUFFER_NUM"), 2);
}

TEST_F(TunerOnFake, TheBudgetIsSpentExactlyAndCertainFailuresAreFree) {
    FakeEvaluator fake(modelled);
    auto r = tune_with(fake, "random", 6);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->evaluations, 6);
    EXPECT_EQ(fake.full_evaluations() + r->summary.value("perf_only", 0), 6) << "each evaluation ran in full or stopped after its perf cases";
    EXPECT_GT(r->summary.value("rejected_by_preflight", 0), 0) << "tiles over 32 KiB fail in the preflight, at no cost";
}

// Once a correct configuration is known, the others run their perf cases first and only a
// faster one runs the rest: a configuration that is faster but wrong on a check case (4 KiB
// tiles here) is caught and never becomes the best; the slower ones stop after the perf cases.
TEST_F(TunerOnFake, OnlyAFasterConfigurationRunsItsCheckCases) {
    FakeEvaluator fake([](const std::string& sources, const EvalRequest& r) {
        const FakeVerdict v = modelled(sources, r);
        if (tile_bytes(r) == 4096 && !r.role_filter && v.status == EvalStatus::ok) return FakeVerdict::fails(EvalStatus::wrong_result, "check case differs");
        return v;
    });
    auto r = tune_with(fake, "exhaustive", 1000);
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_TRUE(r->best_us);
    EXPECT_EQ(*r->best_us, 5);
    EXPECT_EQ(r->best.at("TILE_BYTES"), 8192);
    EXPECT_GT(r->summary.value("perf_only", 0), 0);
    EXPECT_LT(fake.full_evaluations(), r->evaluations) << "slower configurations stopped after their perf cases";
    EXPECT_EQ(fake.full_evaluations() + r->summary.value("perf_only", 0), r->evaluations);
}

TEST_F(TunerOnFake, TheSameSeedGivesTheSameSearch) {
    FakeEvaluator a(modelled), b(modelled);
    auto ra = tune_with(a, "ga", 12, "a");
    auto rb = tune_with(b, "ga", 12, "b");
    ASSERT_TRUE(ra && rb);
    EXPECT_EQ(ra->best, rb->best);
    EXPECT_EQ(ra->best_us, rb->best_us);
}

TEST_F(TunerOnFake, ARerunResumesWithoutPayingAgain) {
    FakeEvaluator first(modelled);
    auto a = tune_with(first, "ga", 10);
    ASSERT_TRUE(a) << a.error().message;
    FakeEvaluator second(modelled);
    auto b = tune_with(second, "ga", 10);
    ASSERT_TRUE(b) << b.error().message;
    EXPECT_EQ(second.evaluations(), 0);
    EXPECT_EQ(b->best, a->best);
}

TEST_F(TunerOnFake, NoConfigurationPassingIsAnError) {
    FakeEvaluator fake([](const std::string&, const EvalRequest&) { return FakeVerdict::fails(EvalStatus::wrong_result, "off by one"); });
    auto r = tune_with(fake, "random", 4);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("no configuration"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace ascendopt
