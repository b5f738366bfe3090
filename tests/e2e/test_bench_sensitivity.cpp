// `ascendopt bench --sensitivity`: Stage II on exp_custom, then its published and tuned programs
// re-timed under every end of the 910B2 file's estimated ranges and two random samples. The
// test checks the figures against what the model's rules imply, not against stored numbers.
#include <cstdio>

#include "cli_runner.h"

namespace ascendopt::e2e {
namespace {

std::string printed(const char* format, double a, double b, double c = 0) {
    char text[128];
    std::snprintf(text, sizeof text, format, a, b, c);
    return text;
}

size_t index_of(const nlohmann::json& labels, const std::string& label) {
    for (size_t i = 0; i < labels.size(); ++i)
        if (labels[i] == label) return i;
    ADD_FAILURE() << "no variant " << label;
    return 0;
}

TEST(BenchSensitivity, ASpeedupIsReTimedAcrossTheEstimatedRanges) {
    TempDir tmp;
    const fs::path suite = tmp.path / "suite";
    fs::create_directories(suite);
    fs::copy(source_dir() / "ops" / "exp_custom", suite / "exp_custom", fs::copy_options::recursive);
    const fs::path out = tmp.path / "out";
    const auto r = run_cli({"bench", suite.string(), "--methods", "stage2", "--budget", "8", "--out", out.string(), "--sensitivity",
                            "--sensitivity-samples", "2", "-q"});
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("robust GM"), std::string::npos) << r.output;

    const auto doc = nlohmann::json::parse(*read_text(out / "sensitivity.json"));
    const auto results = nlohmann::json::parse(*read_text(out / "results.json"));
    const nlohmann::json& labels = doc["variants"];
    ASSERT_EQ(labels[0], "nominal");
    ASSERT_GE(labels.size(), 3u + 2 * 20);  // nominal, both ends of 20+ estimates, 2 samples
    EXPECT_EQ(labels.back(), "sample-2");

    const nlohmann::json& m = doc["methods"]["stage2"];
    ASSERT_EQ(m["jobs"].size(), 1u);
    const std::vector<double> s = m["jobs"][0]["speedups"];
    ASSERT_EQ(s.size(), labels.size());
    // The nominal re-timing is the study's own figure: the same programs, the same model.
    const double study = results["methods"]["stage2"]["summary"]["all"]["gm"];
    EXPECT_NEAR(s[0], study, 1e-6 * study);
    ASSERT_GT(s[0], 1.05) << "the test needs a tuned exp_custom that is faster";
    // A longer launch adds the same time to both programs: the ratio moves towards 1.
    const size_t launch_low = index_of(labels, "launch.overhead_us=low"), launch_high = index_of(labels, "launch.overhead_us=high");
    EXPECT_LT(s[launch_high], s[0]);
    EXPECT_GT(s[launch_low], s[0]);
    // A parameter the vector operator never uses (the cube's issue cost) changes nothing.
    EXPECT_DOUBLE_EQ(s[index_of(labels, "cube.issue_cycles=high")], s[0]);

    const nlohmann::json& op = m["operators"][0];
    const double lo = op["min"], hi = op["max"], median = op["median"];
    EXPECT_DOUBLE_EQ(lo, *std::min_element(s.begin(), s.end()));
    EXPECT_DOUBLE_EQ(hi, *std::max_element(s.begin(), s.end()));
    EXPECT_LE(lo, median);
    EXPECT_LE(median, hi);
    EXPECT_EQ(m["summary"]["robust_gm"].get<double>(), lo);  // one operator: the GM of the minima is its minimum
    EXPECT_LE(m["summary"]["robust_gm"].get<double>(), m["summary"]["gm"].get<double>());

    // The report says the same: the robust GM per method and each operator's range.
    const auto report = run_cli({"report", out.string()});
    ASSERT_EQ(report.exit_code, 0) << report.output;
    const std::string md = *read_text(out / "report.md");
    EXPECT_NE(md.find("## How far the figures can move"), std::string::npos) << md;
    EXPECT_NE(md.find(printed("| stage2 | %.3fx | %.3fx |", m["summary"]["gm"].get<double>(), m["summary"]["robust_gm"].get<double>())),
              std::string::npos)
        << md;
    EXPECT_NE(md.find(printed("%.3fx [%.3f, %.3f]", op["nominal"].get<double>(), lo, hi)), std::string::npos) << md;
}

}  // namespace
}  // namespace ascendopt::e2e
