// `--backend npu` on a machine without an NPU (this one, and CI's): the command stops before
// anything is built and says exactly what is missing, with the environment exit code.
#include "cli_runner.h"

namespace ascendopt::e2e {
namespace {

bool machine_has_npu_software() {
    std::error_code ec;
    return fs::exists("/usr/local/Ascend", ec) || fs::exists("/dev/davinci_manager", ec);
}

TEST(NpuBackend, WithoutToolkitOrDeviceItNamesBoth) {
    if (machine_has_npu_software()) GTEST_SKIP() << "this machine has /usr/local/Ascend or /dev/davinci_manager";
    TempDir home;  // no ~/Ascend under it
    auto r = run_cli({"eval", "ops/add_custom", "--backend", "npu"},
                     {{"ASCEND_HOME_PATH", ""}, {"ASCEND_TOOLKIT_HOME", ""}, {"HOME", home.path.string()}});
    EXPECT_EQ(r.exit_code, 3) << r.output;
    EXPECT_NE(r.output.find("ascendopt: error:"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("ASCEND_HOME_PATH is not set"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("/usr/local/Ascend/ascend-toolkit/latest does not exist"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("/dev/davinci_manager"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("PASS"), std::string::npos) << "nothing may be evaluated:\n" << r.output;
}

TEST(NpuBackend, AnIncompleteToolkitIsListedPieceByPiece) {
    TempDir toolkit;
    fs::create_directories(toolkit.path / "lib64");
    std::ofstream(toolkit.path / "lib64" / "libascendcl.so").put('\n');
    auto r = run_cli({"eval", "ops/add_custom", "--backend", "npu"}, {{"ASCEND_HOME_PATH", toolkit.path.string()}});
    EXPECT_EQ(r.exit_code, 3) << r.output;
    EXPECT_NE(r.output.find("found by ASCEND_HOME_PATH"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("libnnopbase.so"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("msopgen"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("ccec"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("libascendcl.so ("), std::string::npos) << "the runtime is there:\n" << r.output;
}

TEST(NpuBackend, AVariableNamingNoFolderIsAnEnvironmentError) {
    auto r = run_cli({"eval", "ops/add_custom", "--backend", "npu"}, {{"ASCEND_HOME_PATH", "/nonexistent/ascend"}});
    EXPECT_EQ(r.exit_code, 3) << r.output;
    EXPECT_NE(r.output.find("ASCEND_HOME_PATH=/nonexistent/ascend is not a folder"), std::string::npos) << r.output;
}

TEST(NpuBackend, AnUnknownBackendIsBadInput) {
    auto r = run_cli({"eval", "ops/add_custom", "--backend", "gpu"});
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("--backend"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace ascendopt::e2e
