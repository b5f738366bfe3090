// `ascendopt calibrate` on the twin (docs/calibrate.md): the self-test measures the
// microbenchmarks under estimates drawn within their ranges and the fit must find them again;
// the fitted SoC description it writes loads as a SoC file with those parameters measured.
#include <set>

#include "e2e/cli_runner.h"

namespace ascendopt::e2e {
namespace {

TEST(Calibrate, TheSelfTestRecoversTheValuesItMeasuredUnderWithinFivePercent) {
    TempDir tmp;
    const fs::path out = tmp.path / "fitted.toml";
    const auto r = run_cli({"calibrate", "--self-test", "3", "--json", "-q", "--out", out.string()});
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto j = json_of(r);
    ASSERT_TRUE(j.contains("parameters")) << r.output;
    int determined = 0;
    std::set<std::string> names;
    for (const auto& p : j["parameters"]) {
        if (!p["determined"].get<bool>()) continue;
        ++determined;
        names.insert(p["name"].get<std::string>());
        EXPECT_LT(p["error_pct"].get<double>(), 5.0) << p.dump();
        EXPECT_NE(p["truth"].get<double>(), 1.0) << "the self-test must measure away from the file's values: " << p.dump();
    }
    for (const char* must : {"launch.overhead_us", "scalar.cycles_per_basic_block", "scalar.gm_access_cycles", "sync.sync_all_cycles"})
        EXPECT_TRUE(names.count(must)) << must << " is not determined by the microbenchmarks:\n" << r.output;
    EXPECT_GE(determined, 8) << r.output;

    const auto soc = run_cli({"soc", out.string()});
    ASSERT_EQ(soc.exit_code, 0) << soc.output;
    // Each determined parameter is "measured" in the file's table, with the calibration as source
    // (an entry that covers a table by its `keys`, such as vector.simple, has no line of its own).
    int checked = 0;
    for (const auto& name : names) {
        const auto at = soc.output.find("\n" + name + " ");
        if (at == std::string::npos) continue;
        ++checked;
        const std::string line = soc.output.substr(at + 1, soc.output.find('\n', at + 1) - at - 1);
        EXPECT_NE(line.find(" measured "), std::string::npos) << line;
        EXPECT_NE(line.find("ascendopt calibrate"), std::string::npos) << line;
    }
    EXPECT_GE(checked, 6) << soc.output;
}

TEST(Calibrate, TheSelfTestNeedsTheTwin) {
    const auto r = run_cli({"calibrate", "--self-test", "1", "--backend", "npu"});
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("--self-test measures on the twin"), std::string::npos) << r.output;
}

// --compare on twin-acl: the machine is the twin itself behind ACL, so its latencies and
// speedups must rank exactly as the model's (rho 1); three operators with a baseline/ give the
// speedups something to rank.
TEST(Calibrate, CompareRanksTheBackendAgainstTheModel) {
    const auto r = run_cli({"calibrate", "--compare", "ops/add_custom", "ops/exp_custom", "ops/div_custom", "--backend", "twin-acl", "--json", "-q"},
                           {{"ASCENDOPT_HIDDEN_NONCE", "1"}});
    ASSERT_EQ(r.exit_code, 0) << r.output.substr(0, 3000);
    const auto j = json_of(r);
    ASSERT_TRUE(j.is_object()) << r.output.substr(0, 3000);
    EXPECT_TRUE(j["skipped"].empty()) << j.dump(1);
    ASSERT_GE(j["cases"].size(), 3u) << j.dump(1);
    for (const auto& c : j["cases"]) EXPECT_DOUBLE_EQ(c["machine_us"].get<double>(), c["model_us"].get<double>()) << c.dump();
    ASSERT_EQ(j["speedups"].size(), 3u) << j.dump(1);
    EXPECT_DOUBLE_EQ(j["latency_spearman"].get<double>(), 1.0);
    ASSERT_TRUE(j["speedup_spearman"].is_number()) << j.dump(1);
    EXPECT_DOUBLE_EQ(j["speedup_spearman"].get<double>(), 1.0);

    const auto twin = run_cli({"calibrate", "--compare", "ops/add_custom", "-q"});
    EXPECT_EQ(twin.exit_code, 2) << twin.output;
    EXPECT_NE(twin.output.find("--compare ranks a machine's latencies against the twin's model"), std::string::npos) << twin.output;
}

}  // namespace
}  // namespace ascendopt::e2e
