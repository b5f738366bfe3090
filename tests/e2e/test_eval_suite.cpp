// Every bundled operator passes every case under `ascendopt eval`.
#include "cli_runner.h"

using namespace ascendopt::e2e;

class BundledOperator : public ::testing::TestWithParam<std::string> {};

TEST_P(BundledOperator, PassesEveryCase) {
    const auto r = run_cli({"eval", "ops/" + GetParam(), "--json", "-q"});
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto doc = json_of(r);
    ASSERT_TRUE(doc.is_object()) << r.output;
    EXPECT_EQ(doc["status"], "ok");
    ASSERT_GE(doc["cases"].size(), 4u);
    int perf = 0, check = 0;
    for (const auto& c : doc["cases"]) {
        EXPECT_EQ(c["status"], "ok") << c.dump(2);
        (c["role"] == "perf" ? perf : check) += 1;
    }
    EXPECT_GE(perf, 1);
    EXPECT_GE(check, 3);
}

static std::vector<std::string> bundled_operators() {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(source_dir() / "ops"))
        if (e.is_directory()) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

INSTANTIATE_TEST_SUITE_P(Suite, BundledOperator, ::testing::ValuesIn(bundled_operators()),
                         [](const auto& info) { return info.param; });

TEST(Suite, HasAtLeastTwelveOperators) { EXPECT_GE(bundled_operators().size(), 12u); }
