// The cann-ops suites (suite/cann-ops-level1, -level2, -level3) against the shared cann-ops
// snapshot at ../shared/cann-ops, one test per operator: every case passes except those whose
// manifest marks a known operator defect, and each of those reproduces (a defect that stops
// reproducing means the twin changed what it computes, which someone should look at). Skipped,
// saying why, where the snapshot is absent: a user's clone has no ../shared.
//
// Level 1 runs whole in make test. Levels 2 and 3 hold 76 operators, several minutes each at
// their full case lists, too long for CI's two cores: make test runs the representative subset
// below and make test-cann-full (ASCENDOPT_ALL_LEVELS=1) runs every operator of every level.
#include <algorithm>
#include <cstdlib>
#include <set>

#include "cli_runner.h"

using namespace ascendopt::e2e;

namespace {

fs::path checkout() { return source_dir().parent_path() / "shared" / "cann-ops"; }

std::vector<std::string> operators_of(const std::string& suite) {
    std::vector<std::string> ops;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(source_dir() / "suite" / suite, ec))
        if (fs::is_regular_file(e.path() / "ascendopt.toml")) ops.push_back(suite + "/" + e.path().filename().string());
    std::sort(ops.begin(), ops.end());
    return ops;
}

// One operator per family and per kind of twin feature the levels exercise, chosen for a short
// run: tensor lists (foreach_add_list), a list reduction with cross-core flags (foreach_norm),
// broadcast (addcmul), an index gather (gather), a scatter (scatter_elements_v2), a
// normalization with per-output tolerances (add_rms_norm), an activation with a split
// (swi_glu), a computed output shape (masked_select_v3), constant GM tables (lin_space), and on
// the cube: mmad (load, Mmad, Fixpipe in a mixed launch), the Matmul API (matmul_leakyrelu),
// and two Matmul objects sharing an AIC beside SoftmaxFlashV2 on attached shapes
// (flash_attention_score_with_large_head_dim). mat_mul_v3 (a production kernel on the Matmul
// API with vector-side ND->NZ, callbacks and raw intrinsics) is left to make test-cann-full: its
// cold build alone took 465 s of CI's two cores (measured 2026-12-03).
const std::set<std::string>& ci_subset() {
    static const std::set<std::string> subset = {
        "cann-ops-level2/foreach_add_list", "cann-ops-level2/foreach_norm",     "cann-ops-level2/addcmul",
        "cann-ops-level2/gather",           "cann-ops-level2/scatter_elements_v2", "cann-ops-level2/add_rms_norm",
        "cann-ops-level2/swi_glu",          "cann-ops-level2/masked_select_v3", "cann-ops-level2/lin_space",
        "cann-ops-level3/mmad",             "cann-ops-level3/matmul_leakyrelu",
        "cann-ops-level3/flash_attention_score_with_large_head_dim"};
    return subset;
}

bool runs_in_this_run(const std::string& op) {
    if (op.starts_with("cann-ops-level1/")) return true;
    const char* all = std::getenv("ASCENDOPT_ALL_LEVELS");
    return (all && std::string(all) == "1") || ci_subset().count(op);
}

std::vector<std::string> all_operators() {
    std::vector<std::string> ops;
    for (const char* suite : {"cann-ops-level1", "cann-ops-level2", "cann-ops-level3"})
        for (auto& op : operators_of(suite)) ops.push_back(std::move(op));
    return ops;
}

class CannOps : public ::testing::TestWithParam<std::string> {};

}  // namespace

TEST_P(CannOps, EveryCasePassesOrReproducesItsKnownDefect) {
    if (!fs::is_directory(checkout() / "src" / "math"))
        GTEST_SKIP() << "no cann-ops checkout at " << checkout().string() << " (the cann-ops suites run against the shared snapshot)";
    if (!runs_in_this_run(GetParam()))
        GTEST_SKIP() << GetParam() << " is outside make test's subset; make test-cann-full runs it";
    const auto dir = source_dir() / "suite" / GetParam();
    // The JSON of an operator with a hundred cases runs to megabytes: keep all of it.
    // The hidden case's shape is drawn fresh for every evaluation; a test of published operators
    // (some with shape-dependent defects) pins it, so that a run repeats.
    const auto r = run_cli({"eval", dir.string(), "--cann-ops", checkout().string(), "--json", "-q"}, {{"ASCENDOPT_HIDDEN_NONCE", "1"}}, 64u << 20);
    EXPECT_EQ(r.exit_code, 0) << r.output.substr(0, 4000);
    const auto doc = json_of(r);
    ASSERT_TRUE(doc.is_object()) << r.output.substr(0, 4000);
    int passed = 0, reproduced = 0;
    for (const auto& c : doc["cases"]) {
        const bool defect = !c.value("known_defect", "").empty();
        const bool ok = c.value("status", "") == "ok";
        if (defect) EXPECT_FALSE(ok) << c["name"] << ": the known defect did not reproduce: " << c.value("known_defect", "");
        else EXPECT_TRUE(ok) << c["name"] << ": " << c.value("status", "") << ": " << c.value("reason", "");
        passed += ok && !defect;
        reproduced += defect && !ok;
    }
    // An operator whose published host code fails every call (dynamic_quant) has only defects.
    EXPECT_GT(passed + reproduced, 0);
}

// Test names keep the level: Suite/CannOps.EveryCase.../level2_foreach_norm.
INSTANTIATE_TEST_SUITE_P(Suite, CannOps, ::testing::ValuesIn(all_operators()), [](const ::testing::TestParamInfo<std::string>& p) {
    std::string name = p.param.substr(std::string("cann-ops-").size());
    std::replace(name.begin(), name.end(), '/', '_');
    std::replace(name.begin(), name.end(), '-', '_');
    return name;
});
