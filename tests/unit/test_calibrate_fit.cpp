// The fit of calibrate/fit.h on models whose answer is known: it finds the factors the
// measurements were made under, keeps a parameter nothing depends on, and passes a predictor's
// failure on.
#include <gtest/gtest.h>

#include <cmath>

#include "calibrate/compare.h"
#include "calibrate/fit.h"

namespace ascendopt {
namespace {

UncertainParameter param(const std::string& name, double lo, double hi) { return {name, {name}, lo, hi}; }

// Latencies of four measurements, each a different mix of three costs, plus a small
// launch-like constant; a `max` makes one of them piecewise, as the twin's pipes are.
std::vector<double> model(const std::vector<double>& f) {
    const double a = 300 * f[0], b = 50 * f[1], c = 2000 * f[2];
    return {100 + a + b, 100 + 20 * a, 100 + std::max(40 * b, c), 100 + 8 * b + 3 * c};
}

LatencyPredictor predictor_of(std::vector<double> (*m)(const std::vector<double>&), int* calls = nullptr) {
    return [m, calls](const std::vector<std::vector<double>>& points) -> Result<std::vector<std::vector<double>>> {
        if (calls) ++*calls;
        std::vector<std::vector<double>> rows;
        for (const auto& p : points) rows.push_back(m(p));
        return rows;
    };
}

TEST(CalibrateFit, FindsTheFactorsTheMeasurementsWereMadeUnder) {
    const std::vector<UncertainParameter> u = {param("a", 0.3, 3.0), param("b", 0.5, 2.0), param("c", 0.2, 4.0)};
    for (const std::vector<double>& truth : {std::vector<double>{2.1, 0.6, 0.35}, {0.4, 1.9, 3.3}, {1.0, 1.0, 1.0}}) {
        int calls = 0;
        const auto fit = fit_factors(u, model(truth), predictor_of(model, &calls));
        ASSERT_TRUE(fit) << fit.error().message;
        for (size_t i = 0; i < u.size(); ++i) {
            EXPECT_TRUE(fit->parameters[i].determined) << u[i].name;
            EXPECT_NEAR(fit->parameters[i].factor / truth[i], 1.0, 0.01) << u[i].name << " truth " << truth[i];
        }
        EXPECT_LT(fit->rms_log_residual, 1e-3);
        EXPECT_GT(calls, 2);
    }
}

// Only the sum of the two costs shows: each trades off against the other.
std::vector<double> only_the_sum(const std::vector<double>& f) { return {10 + 100 * f[0] + 100 * f[1], 10 + 300 * f[0] + 300 * f[1]}; }

TEST(CalibrateFit, TwoParametersThatTradeOffAreFittedButNotDetermined) {
    const std::vector<UncertainParameter> u = {param("a", 0.5, 2.0), param("b", 0.5, 2.0)};
    const auto fit = fit_factors(u, only_the_sum({1.6, 0.7}), predictor_of(only_the_sum));
    ASSERT_TRUE(fit) << fit.error().message;
    EXPECT_LT(fit->rms_log_residual, 1e-3);
    for (const auto& p : fit->parameters) {
        EXPECT_TRUE(p.fitted) << p.name;
        EXPECT_FALSE(p.determined) << p.name << ": uncertainty " << p.uncertainty;
        EXPECT_GT(p.uncertainty, 1.0) << p.name;
    }
    EXPECT_NEAR(fit->parameters[0].factor + fit->parameters[1].factor, 2.3, 0.01);
}

std::vector<double> ignores_the_second(const std::vector<double>& f) { return {100 + 50 * f[0], 100 + 10 * f[0]}; }

TEST(CalibrateFit, AParameterNothingDependsOnKeepsItsValue) {
    const std::vector<UncertainParameter> u = {param("a", 0.5, 2.0), param("unused", 0.5, 2.0)};
    const auto fit = fit_factors(u, ignores_the_second({1.5, 1.0}), predictor_of(ignores_the_second));
    ASSERT_TRUE(fit) << fit.error().message;
    EXPECT_TRUE(fit->parameters[0].determined);
    EXPECT_NEAR(fit->parameters[0].factor, 1.5, 0.01);
    EXPECT_FALSE(fit->parameters[1].determined);
    EXPECT_EQ(fit->parameters[1].factor, 1.0);
    EXPECT_EQ(fit->parameters[1].sensitivity, 0.0);
}

TEST(CalibrateFit, APredictorsFailureAndBadAnswersAreErrors) {
    const std::vector<UncertainParameter> u = {param("a", 0.5, 2.0)};
    const LatencyPredictor failing = [](const std::vector<std::vector<double>>&) -> Result<std::vector<std::vector<double>>> {
        return make_error("the model could not run");
    };
    auto fit = fit_factors(u, {1.0}, failing);
    ASSERT_FALSE(fit);
    EXPECT_EQ(fit.error().message, "the model could not run");
    const LatencyPredictor negative = [](const std::vector<std::vector<double>>& pts) -> Result<std::vector<std::vector<double>>> {
        return std::vector<std::vector<double>>(pts.size(), std::vector<double>{-1.0});
    };
    fit = fit_factors(u, {1.0}, negative);
    ASSERT_FALSE(fit);
    EXPECT_NE(fit.error().message.find("latency of -1"), std::string::npos) << fit.error().message;
    fit = fit_factors(u, {0.0}, predictor_of(ignores_the_second));
    ASSERT_FALSE(fit);
    EXPECT_NE(fit.error().message.find("cannot be fitted"), std::string::npos) << fit.error().message;
}

TEST(CalibrateCompare, SpearmanRanksTiesAtTheirAverageAndNeedsSomethingToRank) {
    EXPECT_DOUBLE_EQ(*spearman({1, 2, 3, 4}, {10, 200, 3000, 40000}), 1.0) << "only the order counts";
    EXPECT_DOUBLE_EQ(*spearman({1, 2, 3, 4}, {4, 3, 2, 1}), -1.0);
    // Ranks {1, 2.5, 2.5, 4} against {1, 2, 3, 4}: 4.5 / sqrt(4.5 * 5).
    EXPECT_NEAR(*spearman({1, 2, 2, 3}, {1, 2, 3, 4}), 4.5 / std::sqrt(22.5), 1e-12);
    EXPECT_FALSE(spearman({1, 2}, {1, 2})) << "two pairs say nothing about a ranking";
    EXPECT_FALSE(spearman({5, 5, 5}, {1, 2, 3})) << "one side never changes";
    EXPECT_FALSE(spearman({1, 2, 3}, {1, 2})) << "unpaired";
}

}  // namespace
}  // namespace ascendopt
