// --backend npu end to end on a stand-in machine (tests/npu_standin/README.md): a toolkit layout
// whose msopgen and project build.sh stand in for CANN's, whose ACL runtime is the twin's, and a
// device folder with one NPU. Everything ascendopt does is its real npu path: the probe, the
// package build through the toolchain interface into a private OPP folder, the invoker compiled
// against the toolkit, the runs with warm-up and timed repeats, the result documents, the
// judging. The stand-in package computes AddCustom on the device memory itself, so the outputs
// are compared for real, and charges a run-to-run varying device time.
#include <algorithm>
#include <fstream>
#include <regex>

#include "cli_runner.h"

namespace ascendopt::e2e {
namespace {

class NpuStandIn : public ::testing::Test {
protected:
    void SetUp() override {
        const fs::path kit = toolkit(), standin = source_dir() / "tests" / "npu_standin";
        fs::create_directories(kit / "lib64");
        for (const char* lib : {"libascendcl.so", "libnnopbase.so"})
            fs::create_symlink(fs::path(ASCENDOPT_TWIN_CANN_DIR) / "lib64" / lib, kit / "lib64" / lib);
        fs::create_directory_symlink(source_dir() / "src" / "twin" / "include", kit / "include");
        fs::create_directories(kit / "python" / "site-packages" / "bin");
        fs::copy_file(standin / "msopgen", kit / "python" / "site-packages" / "bin" / "msopgen");
        fs::create_directories(kit / "tools" / "profiler" / "bin");
        fs::copy_file(standin / "msprof", kit / "tools" / "profiler" / "bin" / "msprof");
        fs::create_directories(kit / "compiler" / "ccec_compiler" / "bin");
        std::ofstream(kit / "compiler" / "ccec_compiler" / "bin" / "ccec") << "#!/bin/sh\nexit 1\n";
        fs::permissions(kit / "compiler" / "ccec_compiler" / "bin" / "ccec", fs::perms::owner_exec, fs::perm_options::add);
        fs::create_directories(kit / "x86_64-linux");
        std::ofstream(kit / "x86_64-linux" / "ascend_toolkit_install.info") << "package_name=Ascend-cann-toolkit\nversion=8.0.RC3.standin\n";
        fs::copy(standin, kit / "standin", fs::copy_options::recursive);
        fs::create_directories(m_machine.path / "dev");
        for (const char* node : {"davinci_manager", "davinci0"}) std::ofstream(m_machine.path / "dev" / node).put('\n');
    }

    fs::path toolkit() const { return m_machine.path / "Ascend" / "ascend-toolkit" / "latest"; }

    ProcessResult eval(std::vector<std::string> extra, std::map<std::string, std::string> knobs = {}, const std::string& command = "eval") {
        std::vector<std::string> args = {command, "ops/add_custom", "--backend", "npu", "--json", "-q"};
        args.insert(args.end(), extra.begin(), extra.end());
        knobs.emplace("ASCEND_HOME_PATH", toolkit().string());
        knobs.emplace("ASCENDOPT_NPU_DEV_DIR", (m_machine.path / "dev").string());
        knobs.emplace("ASCEND_RT_VISIBLE_DEVICES", "");
        return run_cli(args, knobs);
    }

    std::string calls() const {
        auto text = read_text(toolkit() / "calls.log");
        return text ? *text : "";
    }

    TempDir m_machine;
};

TEST_F(NpuStandIn, BuildsThePackageRunsTheInvokerAndJudgesWhatTheDeviceWrote) {
    const auto r = eval({});
    ASSERT_EQ(r.exit_code, 0) << r.output.substr(0, 4000);
    EXPECT_NE(r.output.find("npu: CANN 8.0.RC3.standin"), std::string::npos) << r.output.substr(0, 2000);
    const auto doc = json_of(r);
    ASSERT_TRUE(doc.is_object()) << r.output.substr(0, 2000);
    EXPECT_EQ(doc.value("status", ""), "ok");
    EXPECT_EQ(doc.value("backend", ""), "npu");
    size_t timed = 0;
    for (const auto& c : doc["cases"]) {
        EXPECT_EQ(c.value("status", ""), "ok") << c.value("name", "") << ": " << c.value("reason", "");
        if (!c.contains("latency")) continue;
        ++timed;
        // The device's ten timed runs (20.0, 20.2 or 20.4 us each), their median reported; not
        // the twin's model of AddCustom.
        const auto& latency = c["latency"];
        EXPECT_EQ(latency.value("source", ""), "npu") << c.dump();
        std::vector<double> samples = latency.value("samples", std::vector<double>{});
        ASSERT_EQ(samples.size(), 10u) << c.dump();
        std::sort(samples.begin(), samples.end());
        EXPECT_LT(samples.front(), samples.back()) << "the runs' spread is kept: " << c.dump();
        for (double us : samples) {
            EXPECT_GE(us, 20.0 - 1e-6) << c.dump();
            EXPECT_LE(us, 20.4 + 1e-6) << c.dump();
        }
        EXPECT_DOUBLE_EQ(latency.value("value", -1.0), (samples[4] + samples[5]) / 2) << c.dump();
    }
    EXPECT_GT(timed, 0u) << "a perf case is timed";

    // The toolchain interface's steps, in order, each once: the package is built for the chip,
    // installed privately, then reused.
    const std::string log = calls();
    const std::regex steps(
        "msopgen gen -i (\\S+)/op\\.json -c ai_core-Ascend910B2 -lan cpp -out \\1/project\\n"
        "build\\.sh \\1/project\\n"
        "install --install-path=\\1/opp\\n");
    EXPECT_TRUE(std::regex_match(log, steps)) << log;
    const auto again = eval({"--case", doc["cases"][0].value("name", "")});
    EXPECT_EQ(again.exit_code, 0) << again.output.substr(0, 2000);
    EXPECT_EQ(calls(), log) << "the second evaluation reuses the built package";
}

TEST_F(NpuStandIn, AnOutputElementTheDeviceNeverWroteFailsTheCase) {
    const auto r = eval({}, {{"ASCENDOPT_STANDIN_SKIP_LAST", "1"}});
    EXPECT_NE(r.exit_code, 0) << r.output.substr(0, 2000);
    const auto doc = json_of(r);
    ASSERT_TRUE(doc.is_object()) << r.output.substr(0, 2000);
    bool unwritten = false;
    for (const auto& c : doc["cases"])
        if (c.value("status", "") == "wrong_result" && c.value("reason", "").find("output 'z': 1 of ") != std::string::npos &&
            c.value("reason", "").find("were never written") != std::string::npos)
            unwritten = true;
    // Told from a value that merely differs: z's last element holds each checked run's poison.
    EXPECT_TRUE(unwritten) << doc.dump(1).substr(0, 3000);
}

// A kernel that builds for the twin but not with the toolkit is the candidate's verdict, as a
// compile error is: build_failed, naming the step and the log, with the compiler's words.
TEST_F(NpuStandIn, AFailedPackageBuildIsTheCandidatesBuildFailure) {
    const auto r = eval({}, {{"ASCENDOPT_STANDIN_BUILD_FAILS", "1"}});
    EXPECT_EQ(r.exit_code, 1) << r.output.substr(0, 2000);
    const auto doc = json_of(r);
    ASSERT_TRUE(doc.is_object()) << r.output.substr(0, 2000);
    EXPECT_EQ(doc.value("status", ""), "build_failed");
    const std::string reason = doc.value("reason", "");
    EXPECT_NE(reason.find("build the operator package failed (exit code 1): bash build.sh"), std::string::npos) << reason;
    EXPECT_NE(reason.find("build.log"), std::string::npos) << reason;
    EXPECT_NE(doc.value("build_log", "").find("use of undeclared identifier 'DataCopyPadd'"), std::string::npos) << doc.dump(1);
}

// `profile --backend npu`: the perf case run once more under msprof op, whose per-core pipe
// times become the profile the twin's would be (the stand-in's two cores: MTE2 busiest).
TEST_F(NpuStandIn, ProfileReadsTheProfilersPipeUtilization) {
    const auto r = eval({}, {}, "profile");
    ASSERT_EQ(r.exit_code, 0) << r.output.substr(0, 3000);
    const auto p = json_of(r);
    ASSERT_TRUE(p.is_object()) << r.output.substr(0, 3000);
    EXPECT_EQ(p.value("latency_source", ""), "npu");
    EXPECT_EQ(p.value("blocks", 0), 2);
    EXPECT_DOUBLE_EQ(p["pipes"]["MTE2"]["busy_us"].value("max", 0.0), 16.0) << p.dump(1);
    EXPECT_DOUBLE_EQ(p["pipes"]["V"]["busy_us"].value("min", 0.0), 2.5) << p.dump(1);
    EXPECT_EQ(p["bound"].value("pipe", ""), "MTE2") << p.dump(1);
    EXPECT_NE(calls().find("msprof op --aic-metrics=PipeUtilization"), std::string::npos) << calls();
}

TEST_F(NpuStandIn, ADeviceTheProcessMayNotUseIsRefusedByName) {
    const auto r = eval({"--device", "3"});
    EXPECT_EQ(r.exit_code, 2) << r.output.substr(0, 2000);
    EXPECT_NE(r.output.find("--device 3: NPU 3 is not one this process may use (NPU 0)"), std::string::npos) << r.output.substr(0, 2000);
    EXPECT_TRUE(calls().empty()) << "nothing is built:\n" << calls();
}

}  // namespace
}  // namespace ascendopt::e2e
