// The npu backend's discovery of CANN and the devices, its CANN command lines, and the ACL
// runtime loader, on machines described by folders of empty files.
#include <gtest/gtest.h>
#include <sys/utsname.h>

#include <fstream>
#include <map>

#include "npu/acl_runtime.h"
#include "npu/cann_install.h"
#include "npu/cann_toolchain.h"
#include "npu/msprof_csv.h"
#include "npu/npu_backend.h"
#include "support/scratch_test.h"

namespace ascendopt {
namespace {

namespace fs = std::filesystem;

EnvLookup env_of(std::map<std::string, std::string> vars) {
    return [vars = std::move(vars)](const std::string& name) -> std::optional<std::string> {
        const auto it = vars.find(name);
        return it == vars.end() ? std::nullopt : std::optional(it->second);
    };
}

void touch(const fs::path& p, const std::string& text = "") {
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
}

std::string arch() {
    utsname u{};
    uname(&u);
    return u.machine;
}

class NpuDiscovery : public testing::ScratchTest {
protected:
    // A toolkit folder with every piece the backend needs, unless left out.
    fs::path toolkit(const std::string& name, std::vector<std::string> leave_out = {}) {
        const fs::path root = m_dir / name;
        for (const char* rel : {"lib64/libascendcl.so", "lib64/libnnopbase.so", "python/site-packages/bin/msopgen",
                                "compiler/ccec_compiler/bin/ccec"})
            if (std::find(leave_out.begin(), leave_out.end(), rel) == leave_out.end()) touch(root / rel);
        fs::create_directories(root);
        return root;
    }
    CannSearchPaths nowhere() {
        CannSearchPaths p;
        p.system_root = m_dir / "no-system-toolkit";
        p.home = m_dir / "no-home";
        p.dev = m_dir / "no-dev";
        return p;
    }
};

TEST_F(NpuDiscovery, AMachineWithoutCannIsToldEveryPlaceThatWasLookedAt) {
    auto found = find_cann(env_of({}), nowhere());
    ASSERT_FALSE(found);
    EXPECT_TRUE(found.error().missing_tool);
    const std::string& m = found.error().message;
    EXPECT_NE(m.find("ASCEND_HOME_PATH is not set"), std::string::npos) << m;
    EXPECT_NE(m.find("ASCEND_TOOLKIT_HOME is not set"), std::string::npos) << m;
    EXPECT_NE(m.find((m_dir / "no-home/Ascend/ascend-toolkit/latest").string() + " does not exist"), std::string::npos) << m;
    EXPECT_NE(m.find((m_dir / "no-system-toolkit").string() + " does not exist"), std::string::npos) << m;
    EXPECT_NE(found.error().hint.find("set_env.sh"), std::string::npos);
}

TEST_F(NpuDiscovery, AVariableThatNamesNoFolderIsAnErrorNotAFallback) {
    const fs::path fallback = toolkit("default");
    CannSearchPaths paths = nowhere();
    paths.system_root = fallback;
    auto found = find_cann(env_of({{"ASCEND_HOME_PATH", (m_dir / "typo").string()}}), paths);
    ASSERT_FALSE(found);
    EXPECT_NE(found.error().message.find("ASCEND_HOME_PATH=" + (m_dir / "typo").string() + " is not a folder"), std::string::npos)
        << found.error().message;
}

TEST_F(NpuDiscovery, ACompleteToolkitIsFoundByTheFirstConventionThatNamesIt) {
    const fs::path by_var = toolkit("by-var"), by_default = toolkit("by-default");
    touch(by_var / (arch() + "-linux") / "ascend_toolkit_install.info", "package_name=Ascend-cann-toolkit\nversion=8.0.RC3\n");
    touch(by_var / "tools/profiler/bin/msprof");
    CannSearchPaths paths = nowhere();
    paths.system_root = by_default;

    auto found = find_cann(env_of({{"ASCEND_TOOLKIT_HOME", by_var.string()}}), paths);
    ASSERT_TRUE(found) << found.error().message;
    EXPECT_EQ(found->root, by_var);
    EXPECT_EQ(found->found_by, "ASCEND_TOOLKIT_HOME");
    EXPECT_EQ(found->version, "8.0.RC3");
    EXPECT_EQ(found->acl_library, by_var / "lib64/libascendcl.so");
    EXPECT_EQ(found->kernel_compiler, by_var / "compiler/ccec_compiler/bin/ccec");
    ASSERT_TRUE(found->msprof);
    EXPECT_EQ(*found->msprof, by_var / "tools/profiler/bin/msprof");

    auto fallback = find_cann(env_of({}), paths);
    ASSERT_TRUE(fallback) << fallback.error().message;
    EXPECT_EQ(fallback->root, by_default);
    EXPECT_EQ(fallback->found_by, "the default path");
    EXPECT_EQ(fallback->version, "");
    EXPECT_FALSE(fallback->msprof);
}

TEST_F(NpuDiscovery, AToolkitWithoutTheBuildToolsNamesEachMissingPiece) {
    const fs::path root = toolkit("runtime-only", {"lib64/libnnopbase.so", "compiler/ccec_compiler/bin/ccec"});
    auto found = find_cann(env_of({{"ASCEND_HOME_PATH", root.string()}}), nowhere());
    ASSERT_FALSE(found);
    EXPECT_TRUE(found.error().missing_tool);
    const std::string& m = found.error().message;
    EXPECT_NE(m.find("lib64/libnnopbase.so"), std::string::npos) << m;
    EXPECT_NE(m.find("ccec"), std::string::npos) << m;
    EXPECT_EQ(m.find("libascendcl"), std::string::npos) << m;
    EXPECT_EQ(m.find("msopgen"), std::string::npos) << m;
}

TEST(NpuDevices, DeviceListsAreParsedStrictly) {
    auto ok = parse_device_list("0,2, 3");
    ASSERT_TRUE(ok) << ok.error().message;
    EXPECT_EQ(*ok, (std::vector<int>{0, 2, 3}));
    for (const char* bad : {"", "0,,1", "a", "1,1", "-1", "0;1", "123456"}) EXPECT_FALSE(parse_device_list(bad)) << bad;
}

TEST_F(NpuDiscovery, VisibleDevicesFollowTheDriverAndTheVariable) {
    const fs::path dev = m_dir / "dev";
    for (const char* f : {"davinci_manager", "davinci0", "davinci1", "davinci3", "null"}) touch(dev / f);
    auto all = visible_devices(env_of({}), dev);
    ASSERT_TRUE(all) << all.error().message;
    EXPECT_EQ(*all, (std::vector<int>{0, 1, 3}));
    auto some = visible_devices(env_of({{"ASCEND_RT_VISIBLE_DEVICES", "3,0"}}), dev);
    ASSERT_TRUE(some) << some.error().message;
    EXPECT_EQ(*some, (std::vector<int>{3, 0}));
    auto absent = visible_devices(env_of({{"ASCEND_RT_VISIBLE_DEVICES", "2"}}), dev);
    ASSERT_FALSE(absent);
    EXPECT_NE(absent.error().message.find("names NPU 2"), std::string::npos) << absent.error().message;
    EXPECT_NE(absent.error().hint.find("/dev/davinci0, /dev/davinci1, /dev/davinci3"), std::string::npos) << absent.error().hint;

    auto no_driver = visible_devices(env_of({}), m_dir / "empty-dev");
    ASSERT_FALSE(no_driver);
    EXPECT_TRUE(no_driver.error().missing_tool);
    EXPECT_NE(no_driver.error().message.find("davinci_manager"), std::string::npos) << no_driver.error().message;

    // A driver without device files: only the device files are reported missing.
    touch(m_dir / "manager-only" / "davinci_manager");
    auto no_device = visible_devices(env_of({}), m_dir / "manager-only");
    ASSERT_FALSE(no_device);
    EXPECT_EQ(no_device.error().message.find("davinci_manager"), std::string::npos) << no_device.error().message;
    EXPECT_NE(no_device.error().message.find("davinci<N> does not exist"), std::string::npos) << no_device.error().message;
}

TEST_F(NpuDiscovery, TheProbeReportsTheMissingToolkitAndTheMissingDriverTogether) {
    auto probed = probe_npu_machine(env_of({}), nowhere(), "Ascend910B2");
    ASSERT_FALSE(probed);
    EXPECT_TRUE(probed.error().missing_tool);
    EXPECT_NE(probed.error().message.find("CANN toolkit"), std::string::npos) << probed.error().message;
    EXPECT_NE(probed.error().message.find("no NPU is visible"), std::string::npos) << probed.error().message;
}

TEST(NpuToolchain, ComputeUnitsAreTheChipSeries) {
    EXPECT_EQ(compute_unit_of("Ascend910B2"), "ascend910b");
    EXPECT_EQ(compute_unit_of("Ascend910B4"), "ascend910b");
    EXPECT_EQ(compute_unit_of("Ascend310P3"), "ascend310p");
    EXPECT_EQ(compute_unit_of("Ascend910_9391"), "ascend910_93");
    EXPECT_EQ(compute_unit_of("Ascend910"), "ascend910");
}

CannInstall fake_install() {
    CannInstall c;
    c.root = "/opt/cann/latest";
    c.acl_library = c.root / "lib64/libascendcl.so";
    c.nnopbase_library = c.root / "lib64/libnnopbase.so";
    c.msopgen = c.root / "python/site-packages/bin/msopgen";
    c.kernel_compiler = c.root / "compiler/ccec_compiler/bin/ccec";
    return c;
}

TEST(NpuToolchain, PresetsArePointedAtTheToolkitTheVendorAndTheChip) {
    PackageLayout layout{"/w/cand-1", "ascendopt_c1"};
    const nlohmann::json generated = {
        {"version", 1},
        {"configurePresets",
         {{{"name", "default"},
           {"cacheVariables",
            {{"ASCEND_CANN_PACKAGE_PATH", {{"type", "PATH"}, {"value", "/usr/local/Ascend/latest"}}},
             {"vendor_name", {{"type", "STRING"}, {"value", "customize"}}},
             {"ENABLE_BINARY_PACKAGE", {{"type", "BOOL"}, {"value", "True"}}}}}}}}};
    auto set = configure_presets(generated, fake_install(), layout, "Ascend910B2");
    ASSERT_TRUE(set) << set.error().message;
    const auto& vars = (*set)["configurePresets"][0]["cacheVariables"];
    EXPECT_EQ(vars["ASCEND_CANN_PACKAGE_PATH"]["value"], "/opt/cann/latest");
    EXPECT_EQ(vars["vendor_name"]["value"], "ascendopt_c1");
    EXPECT_EQ(vars["ASCEND_COMPUTE_UNIT"]["value"], "ascend910b");
    EXPECT_EQ(vars["ENABLE_BINARY_PACKAGE"]["value"], "True");  // the rest is left as generated
    EXPECT_FALSE(configure_presets(nlohmann::json::object(), fake_install(), layout, "Ascend910B2"));
    EXPECT_FALSE(configure_presets({{"configurePresets", {{{"name", "x"}}}}}, fake_install(), layout, "Ascend910B2"));
}

TEST(NpuToolchain, TheCommandLinesAreExactlyTheDocumentedOnes) {
    const CannToolchain tc(fake_install(), env_of({{"LD_LIBRARY_PATH", "/inherited/lib"}, {"PATH", "/usr/bin"}}));
    const PackageLayout layout{"/w/cand-1", "ascendopt_c1"};

    const CannCommand gen = tc.generate_project(layout, "Ascend910B2");
    EXPECT_EQ(gen.argv, (std::vector<std::string>{"/opt/cann/latest/python/site-packages/bin/msopgen", "gen", "-i", "/w/cand-1/op.json", "-c",
                                                  "ai_core-Ascend910B2", "-lan", "cpp", "-out", "/w/cand-1/project"}));
    EXPECT_EQ(gen.env.at("ASCEND_HOME_PATH"), "/opt/cann/latest");
    EXPECT_EQ(gen.env.at("ASCEND_OPP_PATH"), "/opt/cann/latest/opp");
    EXPECT_EQ(gen.env.at("PATH"), "/opt/cann/latest/compiler/ccec_compiler/bin:/opt/cann/latest/python/site-packages/bin:/opt/cann/latest/bin:/usr/bin");

    const CannCommand build = tc.build_package(layout);
    EXPECT_EQ(build.argv, (std::vector<std::string>{"bash", "build.sh"}));
    EXPECT_EQ(build.cwd, "/w/cand-1/project");

    const CannCommand install = tc.install_package("/w/cand-1/project/build_out/custom_opp_ubuntu_x86_64.run", layout);
    EXPECT_EQ(install.argv,
              (std::vector<std::string>{"/w/cand-1/project/build_out/custom_opp_ubuntu_x86_64.run", "--install-path=/w/cand-1/opp"}));

    const CannCommand compile = tc.compile_invoker("/w/cand-1/invoker.cpp", "/w/cand-1/invoker", layout, {"/share/include"});
    EXPECT_EQ(compile.argv,
              (std::vector<std::string>{"g++", "-std=c++17", "-O2", "/w/cand-1/invoker.cpp", "-o", "/w/cand-1/invoker", "-I/share/include",
                                        "-I/w/cand-1/opp/vendors/ascendopt_c1/op_api/include", "-L/w/cand-1/opp/vendors/ascendopt_c1/op_api/lib",
                                        "-Wl,-rpath,/w/cand-1/opp/vendors/ascendopt_c1/op_api/lib", "-L/opt/cann/latest/lib64",
                                        "-Wl,-rpath,/opt/cann/latest/lib64", "-lcust_opapi", "-lnnopbase", "-lascendcl"}));

    const CannCommand run = tc.run_invoker("/w/cand-1/invoker", {"job.json"}, layout, 3);
    EXPECT_EQ(run.argv, (std::vector<std::string>{"/w/cand-1/invoker", "job.json"}));
    EXPECT_EQ(run.env.at("ASCEND_CUSTOM_OPP_PATH"), "/w/cand-1/opp/vendors/ascendopt_c1");
    EXPECT_EQ(run.env.at("ASCEND_RT_VISIBLE_DEVICES"), "3");
    EXPECT_EQ(run.env.at("LD_LIBRARY_PATH"), "/w/cand-1/opp/vendors/ascendopt_c1/op_api/lib:/opt/cann/latest/lib64:/inherited/lib");

    auto no_profiler = tc.profile(run, "/w/cand-1/prof");
    ASSERT_FALSE(no_profiler);
    EXPECT_TRUE(no_profiler.error().missing_tool);
    CannInstall with_msprof = fake_install();
    with_msprof.msprof = with_msprof.root / "tools/profiler/bin/msprof";
    auto profiled = CannToolchain(with_msprof, env_of({})).profile(run, "/w/cand-1/prof");
    ASSERT_TRUE(profiled) << profiled.error().message;
    EXPECT_EQ(profiled->argv, (std::vector<std::string>{"/opt/cann/latest/tools/profiler/bin/msprof", "op", "--output=/w/cand-1/prof",
                                                        "--aic-metrics=PipeUtilization", "/w/cand-1/invoker", "job.json"}));
    EXPECT_EQ(profiled->env.at("ASCEND_RT_VISIBLE_DEVICES"), "3");
}

TEST(NpuAclRuntime, AMissingLibraryAndALibraryWithoutTheApiAreToldApart) {
    auto missing = AclRuntime::load("/nonexistent/lib64/libascendcl.so");
    ASSERT_FALSE(missing);
    EXPECT_TRUE(missing.error().missing_tool);
    EXPECT_NE(missing.error().message.find("cannot load the ACL runtime /nonexistent/lib64/libascendcl.so"), std::string::npos);

    auto not_acl = AclRuntime::load("libm.so.6");  // loads, and has none of the ACL functions
    ASSERT_FALSE(not_acl);
    EXPECT_NE(not_acl.error().message.find("lacks aclInit, aclFinalize, aclrtGetDeviceCount, aclrtGetSocName, aclGetRecentErrMsg"),
              std::string::npos)
        << not_acl.error().message;
    EXPECT_EQ(acl_error_text(100000), "ACL error 100000 (ACL_ERROR_INVALID_PARAM)");
    EXPECT_EQ(acl_error_text(42), "ACL error 42");
}

// Our dlopen declarations against a library built from the reference's signatures: the twin's
// ACL runtime (src/twin/acl/), which a CANN-free machine has.
TEST(NpuAclRuntime, TheTwinsRuntimeIsProbedThroughTheSameDeclarations) {
    auto runtime = AclRuntime::load(fs::path(ASCENDOPT_TWIN_CANN_DIR) / "lib64" / "libascendcl.so");
    ASSERT_TRUE(runtime) << runtime.error().message;
    auto machine = (*runtime)->probe();
    ASSERT_TRUE(machine) << machine.error().message;
    EXPECT_EQ(machine->device_count, 1u);
    EXPECT_EQ(machine->soc_name, "Ascend910B2");
    auto again = (*runtime)->probe();  // aclFinalize ran: a second probe initializes afresh
    ASSERT_TRUE(again) << again.error().message;
}

// PipeUtilization.csv as msprof op documents it: one row per core; a mixed operator's cube
// columns (aic_) count with the vector ones, as the twin counts both kinds of core.
TEST(MsprofCsv, PipeUtilizationRowsBecomeTheTwinsPerCorePipes) {
    const std::string csv =
        "block_id,sub_block_id,aic_time(us),aic_total_cycles,aiv_time(us),aiv_total_cycles,aiv_vec_time(us),aiv_vec_ratio,"
        "aic_cube_time(us),aic_cube_ratio,aiv_scalar_time(us),aic_scalar_time(us),aic_fixpipe_time(us),aic_mte1_time(us),"
        "aiv_mte2_time(us),aic_mte2_time(us),aiv_mte3_time(us)\r\n"
        "0,cube0,12.0,1,10.0,1,3.0,0.3,8.0,0.6,1.0,0.5,2.0,1.5,6.0,4.0,2.5\r\n"
        "1,cube0,N/A,1,9.0,1,2.0,0.2,N/A,0,1.0,0,0,0,5.0,0,2.0\r\n";
    auto blocks = blocks_from_pipe_utilization(csv);
    ASSERT_TRUE(blocks) << blocks.error().message;
    ASSERT_EQ(blocks->size(), 2u);
    const auto& b0 = (*blocks)[0];
    EXPECT_EQ(b0["block"], 0);
    EXPECT_EQ(b0["core"], "cube0");
    EXPECT_DOUBLE_EQ(b0["busy_end_us"].get<double>(), 12.0) << "the later of the core's cube and vector times";
    EXPECT_DOUBLE_EQ(b0["pipes"]["S"]["busy_us"].get<double>(), 1.5);
    EXPECT_DOUBLE_EQ(b0["pipes"]["V"]["busy_us"].get<double>(), 3.0);
    EXPECT_DOUBLE_EQ(b0["pipes"]["M"]["busy_us"].get<double>(), 8.0);
    EXPECT_DOUBLE_EQ(b0["pipes"]["MTE1"]["busy_us"].get<double>(), 1.5);
    EXPECT_DOUBLE_EQ(b0["pipes"]["MTE2"]["busy_us"].get<double>(), 10.0);
    EXPECT_DOUBLE_EQ(b0["pipes"]["MTE3"]["busy_us"].get<double>(), 2.5);
    EXPECT_DOUBLE_EQ(b0["pipes"]["FIX"]["busy_us"].get<double>(), 2.0);
    EXPECT_DOUBLE_EQ((*blocks)[1]["busy_end_us"].get<double>(), 9.0) << "N/A is an idle unit";

    auto no_header = blocks_from_pipe_utilization("Op Name,Task Duration(us)\nAddCustom,3.5\n");
    ASSERT_FALSE(no_header);
    EXPECT_NE(no_header.error().message.find("no block_id and core time columns"), std::string::npos) << no_header.error().message;
    auto garbage = blocks_from_pipe_utilization("block_id,aiv_time(us),aiv_vec_time(us)\n0,4.0,fast\n");
    ASSERT_FALSE(garbage);
    EXPECT_NE(garbage.error().message.find("row 1: aiv_vec_time(us) is 'fast', not a number"), std::string::npos) << garbage.error().message;
}

}  // namespace
}  // namespace ascendopt
