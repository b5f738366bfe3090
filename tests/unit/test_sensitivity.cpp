// The sensitivity analysis's arithmetic (study/sensitivity.h): which SoC variants are made, and
// how per-operator ranges and the robust GM follow from the re-timed speedups.
#include <gtest/gtest.h>

#include <cmath>

#include "study/sensitivity.h"

namespace ascendopt {
namespace {

using nlohmann::json;

json two_estimates() {
    return json::parse(R"({"name": "Tiny", "mte": {"latency_cycles": 1000}, "launch": {"overhead_us": 3.0}, "clock": {"ghz": 1.8},
        "provenance": {"mte.latency_cycles": {"kind": "estimate", "range": [300, 1500], "source": "ours", "reason": "r"},
                       "launch.overhead_us": {"kind": "estimate", "range": [3, 15], "source": "ours", "reason": "r"},
                       "clock.ghz": {"kind": "vendor-config", "source": "cube_freq=1800"}}})");
}

TEST(Sensitivity, VariantsAreTheNominalEachRangesEndsAndReproducibleSamples) {
    const json doc = two_estimates();
    auto params = soc_parameters(doc);
    ASSERT_TRUE(params);
    const auto v = sensitivity_variants(doc, *params, 3, 7);
    std::vector<std::string> labels;
    for (const auto& x : v) labels.push_back(x.label);
    // launch.overhead_us's low end is its own value: no variant repeats the nominal.
    EXPECT_EQ(labels, (std::vector<std::string>{"nominal", "launch.overhead_us=high", "mte.latency_cycles=low", "mte.latency_cycles=high",
                                                "sample-1", "sample-2", "sample-3"}));
    EXPECT_EQ(v[2].soc["mte"]["latency_cycles"], 300.0);
    EXPECT_EQ(v[2].soc["launch"]["overhead_us"], 3.0);  // one parameter at a time
    for (size_t i = 4; i < v.size(); ++i) {
        const double l = v[i].soc["mte"]["latency_cycles"], o = v[i].soc["launch"]["overhead_us"];
        EXPECT_GE(l, 300.0);
        EXPECT_LE(l, 1500.0);
        EXPECT_GE(o, 3.0);
        EXPECT_LE(o, 15.0);
        EXPECT_EQ(v[i].soc["clock"]["ghz"], 1.8);  // not an estimate: never moved
    }
    EXPECT_EQ(sensitivity_variants(doc, *params, 3, 7)[5].soc, v[5].soc);
    EXPECT_NE(sensitivity_variants(doc, *params, 3, 8)[5].soc, v[5].soc);
}

TEST(Sensitivity, RobustGmIsTheGmOfTheMinimaAndTheLargestCanBeLeftOut) {
    const std::vector<SocVariant> variants = {{"nominal", {}}, {"a=low", {}}, {"a=high", {}}};
    const std::vector<PairSensitivity> pairs = {{"m", "big", 0, {4.0, 2.0, 5.0}},
                                                {"m", "small", 0, {1.2, 1.1, 1.3}},
                                                {"m", "small", 1, {1.4, 0.9, 1.5}}};
    const auto ops = per_operator(pairs, variants);
    ASSERT_EQ(ops.size(), 2u);
    EXPECT_EQ(ops[0].op, "big");
    EXPECT_DOUBLE_EQ(ops[0].min, 2.0);
    EXPECT_EQ(ops[0].min_at, "a=low");
    EXPECT_DOUBLE_EQ(ops[1].nominal, 1.3);  // the median of the two seeds' nominal speedups
    EXPECT_DOUBLE_EQ(ops[1].min, 0.9);
    EXPECT_DOUBLE_EQ(ops[1].max, 1.5);
    EXPECT_DOUBLE_EQ(ops[1].median, 1.25);  // of all six
    const auto s = summarize(ops);
    EXPECT_NEAR(s.gm, std::sqrt(4.0 * 1.3), 1e-12);
    EXPECT_NEAR(s.robust_gm, std::sqrt(2.0 * 0.9), 1e-12);
    EXPECT_EQ(s.largest, "big");
    EXPECT_NEAR(s.gm_without_largest, 1.3, 1e-12);
}

}  // namespace
}  // namespace ascendopt
