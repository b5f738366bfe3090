// `ascendopt profile` and the simulated latency in `ascendopt eval`: every bundled operator
// profiles, traces are valid Chrome-trace JSON, noise is reproducible, kernel scalar code is
// charged and the twin's own code is not.
#include <cxxabi.h>

#include <regex>
#include <set>

#include "cli_runner.h"
#include "eval/toolchain.h"

using namespace ascendopt::e2e;

namespace {

nlohmann::json profile_json(const std::string& op, const fs::path& trace, std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"profile", op, "--json", "-q", "--trace", trace.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = run_cli(args);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return json_of(r);
}

}  // namespace

class ProfiledOperator : public ::testing::TestWithParam<std::string> {};

TEST_P(ProfiledOperator, ProfilesWithAValidTrace) {
    TempDir dir;
    const auto doc = profile_json("ops/" + GetParam(), dir.path / "t.json");
    ASSERT_TRUE(doc.is_object()) << doc.dump();
    EXPECT_GT(doc["latency_us"].get<double>(), 0);
    EXPECT_EQ(doc["latency_source"], "sim");
    EXPECT_TRUE(std::set<std::string>({"S", "V", "MTE2", "MTE3"}).count(doc["bound"]["pipe"].get<std::string>()));
    EXPECT_GT(doc["bytes_in"].get<uint64_t>() + doc["bytes_out"].get<uint64_t>(), 0u);
    // Every bundled kernel stages its data through InitBuffer'd UB, within the core's UB.
    EXPECT_GT(doc["ub_bytes"].get<uint64_t>(), 0u);
    EXPECT_LE(doc["ub_bytes"].get<uint64_t>(), doc["ub_capacity"].get<uint64_t>());
    // The bundled kernels keep their scalar code per tile or per row; thousands of basic blocks
    // per core would mean twin code (e.g. a <cmath> wrapper per element) is being charged.
    for (const auto& core : doc["cores"]) EXPECT_LT(core["basic_blocks"].get<uint64_t>(), 3000u) << core.dump();

    auto text = ascendopt::read_text(dir.path / "t.json");
    ASSERT_TRUE(text);
    const auto trace = nlohmann::json::parse(*text, nullptr, false);
    ASSERT_TRUE(trace.is_object() && trace["traceEvents"].is_array()) << "not Chrome-trace JSON";
    size_t spans = 0, thread_names = 0;
    for (const auto& e : trace["traceEvents"]) {
        ASSERT_TRUE(e["ph"].is_string() && e["pid"].is_number());
        if (e["ph"] == "X") {
            ASSERT_TRUE(e["ts"].is_number() && e["dur"].is_number() && e["tid"].is_number() && e["name"].is_string());
            ASSERT_GE(e["dur"].get<double>(), 0);
            ++spans;
        }
        if (e["ph"] == "M" && e["name"] == "thread_name") ++thread_names;
    }
    EXPECT_GT(spans, 0u);
    EXPECT_EQ(thread_names, 4 * doc["blocks"].get<size_t>()) << "one track per pipe per core";
}

static std::vector<std::string> operators() {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(source_dir() / "ops"))
        if (e.is_directory()) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

INSTANTIATE_TEST_SUITE_P(Suite, ProfiledOperator, ::testing::ValuesIn(operators()), [](const auto& info) { return info.param; });

TEST(SimulatedLatency, IsShownForPerfCasesAndRepeatable) {
    const auto a = run_cli({"eval", "ops/exp_custom", "--case", "perf"});
    const auto b = run_cli({"eval", "ops/exp_custom", "--case", "perf"});
    ASSERT_EQ(a.exit_code, 0) << a.output;
    EXPECT_NE(a.output.find(" us (simulated)"), std::string::npos) << a.output;
    EXPECT_EQ(a.output.substr(a.output.find("max abs")), b.output.substr(b.output.find("max abs")));
}

TEST(SimulatedLatency, NoiseIsReproducibleAndCentred) {
    auto latency = [](std::vector<std::string> extra) {
        std::vector<std::string> args = {"eval", "ops/add_custom", "--case", "Test_AddCustom_perf", "--json", "-q"};
        args.insert(args.end(), extra.begin(), extra.end());
        const auto r = run_cli(args);
        EXPECT_EQ(r.exit_code, 0) << r.output;
        return json_of(r)["cases"][0]["latency"];
    };
    const auto exact = latency({"--repeats", "5"});
    const auto noisy = latency({"--sim-noise", "5", "--repeats", "9", "--seed", "7"});
    const auto again = latency({"--sim-noise", "5", "--repeats", "9", "--seed", "7"});
    const auto other = latency({"--sim-noise", "5", "--repeats", "9", "--seed", "8"});
    const auto samples = exact["samples"].get<std::vector<double>>();
    EXPECT_EQ(std::set<double>(samples.begin(), samples.end()).size(), 1u) << "no noise unless asked for";
    EXPECT_EQ(noisy, again);
    EXPECT_NE(noisy["samples"], other["samples"]);
    const auto s = noisy["samples"].get<std::vector<double>>();
    EXPECT_GT(std::set<double>(s.begin(), s.end()).size(), 5u);
    EXPECT_NEAR(noisy["value"].get<double>() / exact["value"].get<double>(), 1.0, 0.1);
}

TEST(ScalarWork, KernelScalarCodeIsCharged) {
    TempDir dir;
    const auto base = profile_json("ops/add_custom", dir.path / "a.json");
    OperatorCopy op("add_custom");
    // Index arithmetic the compiler cannot drop: a scalar loop per tile.
    op.edit("op_kernel/add_custom.cpp", "        LocalTensor<DTYPE_Z> zLocal = outQueueZ.AllocTensor<DTYPE_Z>();",
            "        for (volatile uint32_t k = 0; k < 3000; k = k + 1) {\n        }\n"
            "        LocalTensor<DTYPE_Z> zLocal = outQueueZ.AllocTensor<DTYPE_Z>();");
    const auto slow = profile_json(op.dir().string(), dir.path / "b.json");
    EXPECT_GT(slow["pipes"]["S"]["busy_us"]["max"].get<double>(), 5 * base["pipes"]["S"]["busy_us"]["max"].get<double>());
    EXPECT_GT(slow["latency_us"].get<double>(), 1.5 * base["latency_us"].get<double>());
    EXPECT_EQ(slow["bound"]["pipe"], "S");
}

// The twin's API code is inlined into the kernel's translation unit but must not be counted as
// the kernel's scalar work: no function of AscendC:: or ascendopt_twin:: may call the coverage hook.
TEST(ScalarWork, TwinCodeIsNotInstrumented) {
    auto tc = ascendopt::detect_toolchain();
    ASSERT_TRUE(tc) << tc.error().message;
    TempDir dir;
    std::ofstream(dir.path / "defs.h") << "#define DTYPE_X half\n#define DTYPE_Y half\n#define DTYPE_Z half\n"
                                       << "#define ASCENDOPT_TILING_TYPE optiling::AddCustomTilingData\n";
    // What the builder generates after the tiling headers: the tiling structs at global scope.
    std::ofstream(dir.path / "names.h") << "namespace optiling {}\nusing optiling::AddCustomTilingData;\n";
    std::vector<std::string> args = {tc->cxx};
    for (const auto& f : tc->kernel_flags()) args.push_back(f);
    const fs::path op = source_dir() / "ops" / "add_custom";
    args.insert(args.end(), {"-include", "kernel_operator.h", "-include", (dir.path / "defs.h").string(), "-include",
                             (op / "op_host/add_custom_tiling.h").string(), "-include", (dir.path / "names.h").string(),
                             "-S", "-o", (dir.path / "k.s").string(), (op / "op_kernel/add_custom.cpp").string()});
    const auto r = ascendopt::run_process(args, {.timeout_seconds = 300});
    ASSERT_TRUE(r.succeeded()) << r.output;
    std::istringstream asm_text(*ascendopt::read_text(dir.path / "k.s"));
    std::string line, function;
    std::set<std::string> instrumented;
    const std::regex label(R"(^([_A-Za-z][_A-Za-z0-9.$]*):)");
    for (std::smatch m; std::getline(asm_text, line);) {
        if (std::regex_search(line, m, label)) function = m[1];
        if (line.find("__sanitizer_cov_trace_pc") != std::string::npos && line.find("call") != std::string::npos)
            instrumented.insert(function);
    }
    EXPECT_TRUE(instrumented.count("add_custom")) << "the kernel's own code must be instrumented";
    for (const auto& f : instrumented) {
        int status = 0;
        char* d = abi::__cxa_demangle(f.c_str(), nullptr, nullptr, &status);
        const std::string name = status == 0 && d ? d : f;
        std::free(d);
        EXPECT_EQ(name.find("AscendC::"), std::string::npos) << name;
        EXPECT_EQ(name.find("ascendopt_twin::"), std::string::npos) << name;
    }
}
