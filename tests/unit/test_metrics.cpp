// The study's metrics against values computed by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "study/metrics.h"

namespace ascendopt {
namespace {

// Three operators, budget 3:
//   a: baseline 10; evaluations 8, fail, 5   -> speedups after 1, 2, 3: 1.25, 1.25, 2.0
//   b: baseline 6;  evaluations 7, 6         -> never better: 1.0 throughout (stopped after 2)
//   c: baseline 9;  evaluations fail, 6, 4.5 -> 1.0, 1.5, 2.0
std::vector<OperatorOutcome> outcomes() {
    return {{"a", "elementwise", 10, {8.0, std::nullopt, 5.0}},
            {"b", "elementwise", 6, {7.0, 6.0}},
            {"c", "reduction", 9, {std::nullopt, 6.0, 4.5}}};
}

TEST(Metrics, SpeedupIsBaselineOverBestCorrectAndOneWhenNothingBeatsIt) {
    const auto o = outcomes();
    EXPECT_DOUBLE_EQ(speedup(o[0]), 2.0);
    EXPECT_DOUBLE_EQ(speedup(o[0], 2), 1.25);
    EXPECT_DOUBLE_EQ(speedup(o[1]), 1.0);
    EXPECT_DOUBLE_EQ(speedup(o[2], 1), 1.0);  // a failed evaluation is not a result
    EXPECT_DOUBLE_EQ(speedup(o[2]), 2.0);
}

TEST(Metrics, GeometricMeanAndFastP) {
    EXPECT_NEAR(geometric_mean({2.0, 1.0, 2.0}), std::cbrt(4.0), 1e-12);
    EXPECT_DOUBLE_EQ(geometric_mean({}), 1.0);
    EXPECT_DOUBLE_EQ(fast_p({2.0, 1.0, 2.0}, 1.0), 2.0 / 3);  // strictly faster than p
    EXPECT_DOUBLE_EQ(fast_p({2.0, 1.0, 2.0}, 2.0), 0.0);
    EXPECT_DOUBLE_EQ(fast_p({2.0, 1.0, 1.5}, 1.4), 2.0 / 3);
}

TEST(Metrics, SummaryByLevelAndProgressCurve) {
    const MethodSummary s = summarize(outcomes(), 3);
    EXPECT_EQ(s.all.operators, 3u);
    EXPECT_NEAR(s.all.gm, std::cbrt(4.0), 1e-12);
    EXPECT_DOUBLE_EQ(s.all.fast.at(1.2), 2.0 / 3);
    EXPECT_DOUBLE_EQ(s.all.fast.at(2.0), 0.0);
    EXPECT_NEAR(s.by_level.at("elementwise").gm, std::sqrt(2.0), 1e-12);
    EXPECT_DOUBLE_EQ(s.by_level.at("reduction").gm, 2.0);
    ASSERT_EQ(s.progress.size(), 3u);
    EXPECT_NEAR(s.progress[0], std::cbrt(1.25 * 1.0 * 1.0), 1e-12);
    EXPECT_NEAR(s.progress[1], std::cbrt(1.25 * 1.0 * 1.5), 1e-12);
    EXPECT_NEAR(s.progress[2], std::cbrt(2.0 * 1.0 * 2.0), 1e-12);
}

// {1, 2, 3}: mean 2, sample sd 1, t(0.975, 2) = 4.303, half width 4.303 / sqrt(3).
TEST(Metrics, MeanIntervalFromStudentsT) {
    const Interval i = mean_interval95({1.0, 2.0, 3.0});
    EXPECT_EQ(i.n, 3u);
    EXPECT_DOUBLE_EQ(i.mean, 2.0);
    EXPECT_NEAR(i.low, 2.0 - 4.303 / std::sqrt(3.0), 1e-12);
    EXPECT_NEAR(i.high, 2.0 + 4.303 / std::sqrt(3.0), 1e-12);
    const Interval one = mean_interval95({1.5});
    EXPECT_DOUBLE_EQ(one.low, 1.5);
    EXPECT_DOUBLE_EQ(one.high, 1.5);
    const Interval same = mean_interval95({1.2, 1.2, 1.2});
    EXPECT_DOUBLE_EQ(same.low, 1.2);
}

// Two seeds of the three operators above: the second finds nothing on a and c (GM 1.0).
// GM over seeds is geometric, its interval on the log scale; fast_p is arithmetic.
TEST(Metrics, SeedsCombineGeometricallyWithAnInterval) {
    auto nothing = outcomes();
    nothing[0].evaluations = {12.0};
    nothing[2].evaluations = {std::nullopt};
    const SeededSummary s = summarize_seeds({outcomes(), nothing}, 3);
    ASSERT_EQ(s.per_seed.size(), 2u);
    const double gm0 = std::cbrt(4.0), gm1 = 1.0;
    EXPECT_NEAR(s.combined.all.gm, std::sqrt(gm0 * gm1), 1e-12);
    EXPECT_NEAR(s.gm.mean, std::sqrt(gm0 * gm1), 1e-12);
    const double log_half = 12.706 * std::abs(std::log(gm0) - std::log(gm1)) / std::sqrt(2.0) / std::sqrt(2.0);
    EXPECT_NEAR(s.gm.low, std::exp(std::log(s.gm.mean) - log_half), 1e-9);
    EXPECT_NEAR(s.gm.high, std::exp(std::log(s.gm.mean) + log_half), 1e-9);
    EXPECT_NEAR(s.combined.all.fast.at(1.0), (2.0 / 3 + 0.0) / 2, 1e-12);
    EXPECT_NEAR(s.fast.at(1.0).mean, 1.0 / 3, 1e-12);
    ASSERT_EQ(s.combined.progress.size(), 3u);
    EXPECT_NEAR(s.combined.progress[2], std::sqrt(gm0 * 1.0), 1e-12);
    EXPECT_NEAR(s.combined.by_level.at("reduction").gm, std::sqrt(2.0 * 1.0), 1e-12);
}

}  // namespace
}  // namespace ascendopt
