// The cann-ops Level-1 suite (suite/cann-ops-level1) against the shared cann-ops snapshot at
// ../shared/cann-ops, one test per operator: every case passes except those whose manifest
// marks a known operator defect, and each of those reproduces (a defect that stops reproducing
// means the twin changed what it computes, which someone should look at). Skipped, saying
// why, where the snapshot is absent: a user's clone has no ../shared.
#include "cli_runner.h"

using namespace ascendopt::e2e;

namespace {

fs::path checkout() { return source_dir().parent_path() / "shared" / "cann-ops"; }

std::vector<std::string> level1_operators() {
    std::vector<std::string> ops;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(source_dir() / "suite" / "cann-ops-level1", ec))
        if (fs::is_regular_file(e.path() / "ascendopt.toml")) ops.push_back(e.path().filename().string());
    std::sort(ops.begin(), ops.end());
    return ops;
}

class CannOpsLevel1 : public ::testing::TestWithParam<std::string> {};

}  // namespace

TEST_P(CannOpsLevel1, EveryCasePassesOrReproducesItsKnownDefect) {
    if (!fs::is_directory(checkout() / "src" / "math"))
        GTEST_SKIP() << "no cann-ops checkout at " << checkout().string() << " (the Level-1 suite runs against the shared snapshot)";
    const auto dir = source_dir() / "suite" / "cann-ops-level1" / GetParam();
    // The JSON of an operator with a hundred cases runs to megabytes: keep all of it.
    const auto r = run_cli({"eval", dir.string(), "--cann-ops", checkout().string(), "--json", "-q"}, {}, 64u << 20);
    EXPECT_EQ(r.exit_code, 0) << r.output.substr(0, 4000);
    const auto doc = json_of(r);
    ASSERT_TRUE(doc.is_object()) << r.output.substr(0, 4000);
    int passed = 0;
    for (const auto& c : doc["cases"]) {
        const bool defect = !c.value("known_defect", "").empty();
        const bool ok = c.value("status", "") == "ok";
        if (defect) EXPECT_FALSE(ok) << c["name"] << ": the known defect did not reproduce: " << c.value("known_defect", "");
        else EXPECT_TRUE(ok) << c["name"] << ": " << c.value("status", "") << ": " << c.value("reason", "");
        passed += ok && !defect;
    }
    EXPECT_GT(passed, 0);
}

INSTANTIATE_TEST_SUITE_P(Suite, CannOpsLevel1, ::testing::ValuesIn(level1_operators()),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });
