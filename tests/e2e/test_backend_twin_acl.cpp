// --backend twin-acl: the npu backend's pipeline with the twin standing in for CANN and the
// device. Every case goes through the generated invoker, the twin's ACL runtime and the
// operator's aclnn API (docs/npu.md "The twin behind aclnn"); each must get the twin backend's
// verdict and latency, and its reason (for a failure, what failed and where).
#include <algorithm>

#include "cli_runner.h"

using namespace ascendopt::e2e;

namespace {

// What of a failure's reason every run of the same case repeats, on either backend: what failed
// (the API or the tensor before the first ": ") and where (the "(at file:line ...)" part). The
// rest may differ between two runs of the twin itself: GM addresses (device memory is mapped
// where the host's kernel puts it), and, when several blocks fail, which block reports first
// (the byte range of a UB overflow, the count of wrong elements a racy defect leaves).
std::string reason_gist(const std::string& reason) {
    const std::string what = reason.substr(0, reason.find(": "));
    const size_t at = reason.find("(at ");
    return what + (at == std::string::npos ? "" : " " + reason.substr(at, reason.find(')', at) - at + 1));
}

// Evaluates with `args` on both backends and compares them case by case.
void expect_same_as_twin(std::vector<std::string> args) {
    args.insert(args.begin(), "eval");
    args.insert(args.end(), {"--json", "-q"});
    const std::map<std::string, std::string> pinned = {{"ASCENDOPT_HIDDEN_NONCE", "1"}};
    const auto twin = run_cli(args, pinned, 64u << 20);
    args.insert(args.end(), {"--backend", "twin-acl"});
    const auto acl = run_cli(args, pinned, 64u << 20);
    EXPECT_EQ(acl.exit_code, twin.exit_code) << acl.output.substr(0, 4000);
    const auto a = json_of(twin), b = json_of(acl);
    ASSERT_TRUE(a.is_object() && b.is_object()) << twin.output.substr(0, 2000) << "\n---\n" << acl.output.substr(0, 2000);
    EXPECT_EQ(b.value("status", ""), a.value("status", ""));
    ASSERT_EQ(b["cases"].size(), a["cases"].size());
    for (size_t i = 0; i < a["cases"].size(); ++i) {
        const auto &x = a["cases"][i], &y = b["cases"][i];
        const std::string name = x.value("name", "");
        EXPECT_EQ(y.value("status", ""), x.value("status", "")) << name << ": " << y.value("reason", "");
        if (x.value("status", "") == "ok") EXPECT_EQ(y.value("reason", ""), x.value("reason", "")) << name;
        else EXPECT_EQ(reason_gist(y.value("reason", "")), reason_gist(x.value("reason", ""))) << name << ": " << y.value("reason", "");
        if (x.contains("latency")) {
            ASSERT_TRUE(y.contains("latency")) << name;
            EXPECT_DOUBLE_EQ(y["latency"].value("value", -1.0), x["latency"].value("value", -2.0)) << name;
        }
    }
}

std::vector<std::string> bundled_operators() {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(source_dir() / "ops"))
        if (fs::exists(e.path() / "ascendopt.toml") || fs::exists(e.path() / "tests")) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

class TwinAclBundled : public ::testing::TestWithParam<std::string> {};

TEST_P(TwinAclBundled, EveryCaseGetsTheTwinsVerdictAndLatencyThroughAcl) { expect_same_as_twin({"ops/" + GetParam()}); }

INSTANTIATE_TEST_SUITE_P(Ops, TwinAclBundled, ::testing::ValuesIn(bundled_operators()));

// The published Level-1 operators (../shared/cann-ops), all 25 in make test: their kernels are
// the ones Suite/CannOps builds, so the ACL path adds only its runs (about 450 test-seconds on
// two cores, measured 2026-12-04 with the kernels built).
fs::path cann_ops() { return source_dir().parent_path() / "shared" / "cann-ops"; }

std::vector<std::string> level1_operators() {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(source_dir() / "suite" / "cann-ops-level1", ec))
        if (fs::is_regular_file(e.path() / "ascendopt.toml")) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

class TwinAclLevel1 : public ::testing::TestWithParam<std::string> {};

TEST_P(TwinAclLevel1, EveryCaseGetsTheTwinsVerdictAndLatencyThroughAcl) {
    if (!fs::is_directory(cann_ops() / "src" / "math"))
        GTEST_SKIP() << "no cann-ops checkout at " << cann_ops().string() << " (the Level-1 operators run against the shared snapshot)";
    expect_same_as_twin({"suite/cann-ops-level1/" + GetParam(), "--cann-ops", cann_ops().string()});
}

INSTANTIATE_TEST_SUITE_P(Suite, TwinAclLevel1, ::testing::ValuesIn(level1_operators()));

// Failures travel the ACL path as they are: a wrong result, an output the kernel leaves partly
// unwritten, and a UB overflow that ends the kernel's process.
TEST(TwinAclFailures, KeepTheirVerdictAndReason) {
    OperatorCopy wrong("add_custom");
    wrong.edit("op_kernel/add_custom.cpp", "Add(zLocal, xLocal, yLocal, Aligned(count));", "Sub(zLocal, xLocal, yLocal, Aligned(count));");
    expect_same_as_twin({wrong.dir().string(), "--case", "Test_AddCustom_ragged[float32]"});
    OperatorCopy partial("add_custom");
    partial.edit("op_kernel/add_custom.cpp", "    op.Process();", "    if (GetBlockIdx() + 1 < GetBlockNum()) op.Process();");
    expect_same_as_twin({partial.dir().string(), "--case", "Test_AddCustom_multi_tile[float16]"});
    OperatorCopy overflow("add_custom");
    overflow.edit("op_host/add_custom.cpp", "tiling.set_tileLength(tileLength > 8192 ? 8192 : tileLength);", "tiling.set_tileLength(65536);");
    expect_same_as_twin({overflow.dir().string()});
}

}  // namespace
