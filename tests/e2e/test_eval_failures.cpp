// `ascendopt eval` on broken operators and bad input: the right status, a message that says
// what is wrong, and the documented exit code.
#include "cli_runner.h"

using namespace ascendopt::e2e;

namespace {

std::string status_of(const ascendopt::ProcessResult& r) {
    const auto doc = json_of(r);
    return doc.is_object() ? doc.value("status", "") : "";
}

}  // namespace

TEST(EvalFailures, CompileErrorIsBuildFailedWithCompilerMessage) {
    OperatorCopy op("add_custom");
    op.edit("op_kernel/add_custom.cpp", "Add(zLocal, xLocal, yLocal, Aligned(count));", "Add(zLocal, xLocal, yLocal, Aligned(count))");
    const auto r = run_cli({"eval", op.dir().string(), "--json", "-q"});
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_EQ(status_of(r), "build_failed") << r.output;
    EXPECT_NE(r.output.find("op_kernel/add_custom.cpp"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("error: expected"), std::string::npos) << r.output;
}

TEST(EvalFailures, WrongResultNamesTheFirstBadIndex) {
    OperatorCopy op("add_custom");
    op.edit("op_kernel/add_custom.cpp", "Add(zLocal, xLocal, yLocal, Aligned(count));", "Sub(zLocal, xLocal, yLocal, Aligned(count));");
    const auto r = run_cli({"eval", op.dir().string(), "--case", "Test_AddCustom_ragged[float32]"});
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find("wrong_result: z: "), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("first at [0,0] (flat 0)"), std::string::npos) << r.output;
}

TEST(EvalFailures, PartialOutputIsWrongResult) {
    OperatorCopy op("add_custom");
    // Skip the work of the last core: its share of z keeps the poison the twin fills outputs with.
    op.edit("op_kernel/add_custom.cpp", "    op.Process();", "    if (GetBlockIdx() + 1 < GetBlockNum()) op.Process();");
    const auto r = run_cli({"eval", op.dir().string(), "--case", "Test_AddCustom_multi_tile[float16]", "--json", "-q"});
    EXPECT_EQ(status_of(r), "wrong_result") << r.output;
}

// A golden that returns None for an output says the operator leaves it unwritten by contract:
// a kernel that writes nothing there passes; the same kernel against a golden with values fails.
TEST(EvalFailures, AnOutputTheGoldenLeavesUnwrittenIsNotChecked) {
    OperatorCopy op("exp_custom");
    op.edit("op_kernel/exp_custom.cpp", "        op.Process();\n    } else if", "    } else if");  // neither tiling key
    op.edit("op_kernel/exp_custom.cpp", "        op.Process();\n    }\n}", "    }\n}");               // writes y
    const auto written = run_cli({"eval", op.dir().string(), "--case", "ragged[float32]", "--json", "-q"});
    EXPECT_EQ(status_of(written), "wrong_result") << written.output;
    op.edit("golden.py", "    return [np.exp(", "    return None\n    return [np.exp(");
    const auto by_contract = run_cli({"eval", op.dir().string(), "--case", "ragged[float32]", "--json", "-q"});
    EXPECT_EQ(status_of(by_contract), "ok") << by_contract.output;
}

// InitBuffer hands out UB past the core's end without complaint (as on the device); the first
// access there faults, and the message names the buffer and the InitBuffer call.
TEST(EvalFailures, UbOverflowIsResourceExceeded) {
    OperatorCopy op("add_custom");
    op.edit("op_host/add_custom.cpp", "tiling.set_tileLength(tileLength > 8192 ? 8192 : tileLength);", "tiling.set_tileLength(65536);");
    const auto r = run_cli({"eval", op.dir().string(), "--case", "Test_AddCustom_perf"});
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find("resource_exceeded: "), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("past the end of the core's 196608-byte UB"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("set up by InitBuffer call"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("(at op_kernel/add_custom.cpp:"), std::string::npos) << r.output;
}

// A kernel may read GM through a plain pointer, as on the device; inside the call's allocations
// that works, and a read past all of them fails saying which allocation it lies past.
TEST(EvalFailures, PlainPointerGmAccessIsCheckedAgainstTheAllocation) {
    OperatorCopy op("add_custom");
    op.edit("op_kernel/add_custom.cpp", "    GET_TILING_DATA(tilingData, tiling);",
            "    GET_TILING_DATA(tilingData, tiling);\n    volatile uint8_t peek = x[0];\n    (void)peek;");
    auto r = run_cli({"eval", op.dir().string(), "--case", "Test_AddCustom_one_element[float16]"});
    EXPECT_EQ(r.exit_code, 0) << r.output;

    op.edit("op_kernel/add_custom.cpp", "volatile uint8_t peek = x[0];", "volatile uint8_t peek = x[4096];");
    r = run_cli({"eval", op.dir().string(), "--case", "Test_AddCustom_one_element[float16]"});
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find("run_failed"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("past the allocation of GM tensor '"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("(at op_kernel/add_custom.cpp:"), std::string::npos) << r.output;
}

TEST(EvalFailures, TilingFailureFromAManifestOutsideTheFolder) {
    const auto dir = *ascendopt::make_temp_dir(std::filesystem::temp_directory_path(), "ascendopt-manifest");
    std::ofstream(dir / "clip.toml") << "[operator]\nsource = \"" << (source_dir() / "ops/clip_custom").string()
                                     << "\"\ngolden = \"" << (source_dir() / "ops/clip_custom/golden.py").string()
                                     << ":clip_golden\"\n[[case]]\nname = \"inverted\"\nshape = [64]\ndtype = \"float32\"\n"
                                        "attrs = { lower = 5.0, upper = -5.0 }\n";
    const auto r = run_cli({"eval", (dir / "clip.toml").string(), "--json", "-q"});
    std::filesystem::remove_all(dir);
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_EQ(status_of(r), "tiling_failed") << r.output;
}

TEST(EvalFailures, EndlessKernelTimesOut) {
    OperatorCopy op("add_custom");
    op.edit("op_kernel/add_custom.cpp", "    op.Process();", "    for (volatile int spin = 1; spin;) {}\n    op.Process();");
    const auto r = run_cli({"eval", op.dir().string(), "--case", "Test_AddCustom_one_element[float16]", "--timeout", "2",
                              "--json", "-q"});
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_EQ(status_of(r), "timeout") << r.output;
}

// The cases of a kernel share one operator process; a case that crashes it or runs past its
// time limit gets that verdict, and the cases after it still run (in a fresh process).
TEST(EvalFailures, ACrashOrTimeoutFailsOnlyItsOwnCase) {
    OperatorCopy op("exp_custom");
    op.edit("op_kernel/exp_custom.cpp", "    GET_TILING_DATA(t, tiling);",
            "    GET_TILING_DATA(t, tiling);\n"
            "    if (t.totalLength == 917) *(volatile int*)nullptr = 1;\n"       // ragged: 7 x 131
            "    if (t.totalLength == 12288) for (volatile int spin = 1; spin;) {}");  // aligned: 48 x 256
    const auto r = run_cli({"eval", op.dir().string(), "--timeout", "2", "--json", "-q"});
    EXPECT_EQ(r.exit_code, 1) << r.output;
    std::map<std::string, std::string> status;
    const auto doc = json_of(r);
    ASSERT_TRUE(doc.is_object()) << r.output.substr(0, 3000);
    for (const auto& c : doc["cases"]) status[c["name"]] = c["status"];
    for (const char* dtype : {"float16", "float32"}) {
        const std::string t = std::string("[") + dtype + "]";
        EXPECT_EQ(status["one_element" + t], "ok");
        EXPECT_EQ(status["ragged" + t], "run_failed");
        EXPECT_EQ(status["aligned" + t], "timeout");
        EXPECT_EQ(status["large" + t], "ok");
    }
    EXPECT_EQ(status["perf"], "ok");
}

TEST(EvalFailures, BadInputExitsWithTwo) {
    auto r = run_cli({"eval", "ops/does_not_exist"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.output.find("ascendopt: error: no such operator"), std::string::npos) << r.output;

    OperatorCopy op("exp_custom");
    op.write("ascendopt.toml", "[operator]\nname = \"ExpCustom\"\ngolden = \"golden.py:exp_golden\"\n[[case]]\nname = \"x\"\nshape = [1\n");
    r = run_cli({"eval", op.dir().string()});
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("ascendopt: error: ascendopt.toml:"), std::string::npos) << r.output;

    r = run_cli({"eval"});
    EXPECT_EQ(r.exit_code, 2) << r.output;
}

// A golden that raises fails its own case (golden_failed, with the exception in one line) and
// the other cases still run.
TEST(EvalFailures, GoldenExceptionFailsOnlyItsCase) {
    OperatorCopy op("exp_custom");
    op.write("golden.py",
             "import numpy as np\n"
             "def exp_golden(x, y):\n"
             "    if x['value'].size == 1:\n"
             "        raise ValueError('broken golden')\n"
             "    return [np.exp(x['value'].astype(np.float64)).astype(x['value'].dtype)]\n");
    const auto r = run_cli({"eval", op.dir().string()});
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find("golden_failed: golden golden.py: the golden raised ValueError: broken golden (at golden.py:4 in exp_golden)"),
              std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("PASS   ragged[float16]"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("8 of 10 cases passed"), std::string::npos) << r.output;
}

// The golden sees each tensor's format as the manifest gives it (NCHW here, ND by default).
TEST(EvalFailures, TheGoldenSeesEachTensorsFormat) {
    OperatorCopy op("exp_custom");
    op.write("ascendopt.toml",
             "[operator]\nname = \"ExpCustom\"\ngolden = \"golden.py:exp_golden\"\n"
             "[[case]]\nname = \"nchw\"\nshape = [1, 2, 3, 4]\ndtypes = [\"float32\"]\n"
             "[case.tensors.x]\nformat = \"NCHW\"\n");
    op.write("golden.py",
             "import numpy as np\n"
             "def exp_golden(x, y):\n"
             "    if x['format'] != 'NCHW' or y['format'] != 'ND':\n"
             "        raise ValueError('formats ' + x['format'] + ' ' + y['format'])\n"
             "    return [np.exp(x['value'].astype(np.float64)).astype(x['value'].dtype)]\n");
    const auto r = run_cli({"eval", op.dir().string()});
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("PASS   nchw"), std::string::npos) << r.output;
}

TEST(EvalFailures, MissingNumpyPythonIsAnEnvironmentError) {
    OperatorCopy op("exp_custom");
    op.edit("golden.py", "import numpy as np", "import numpy as np  # changed so no cached golden applies");
    const auto r = run_cli({"eval", op.dir().string(), "--case", "one_element[float16]"}, {{"ASCENDOPT_PYTHON", "/nonexistent/python3"}});
    EXPECT_EQ(r.exit_code, 3) << r.output;
    EXPECT_NE(r.output.find("ASCENDOPT_PYTHON does not name a Python with numpy"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("python3-numpy"), std::string::npos) << r.output;
}
