// The operator process runs candidate code, so what it writes back is a claim, not a fact.
// A stand-in operator binary (a Python script speaking the harness's job protocol) writes
// correct outputs with forged results: each is refused as run_failed with a reason, ascendopt
// does not crash, and the honest version of the same script passes.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include "eval/case_runner.h"
#include "support/scratch_test.h"
#include "util/files.h"

namespace ascendopt {
namespace {

namespace fs = std::filesystem;

// As the host binary (--tiling): an honest one-block plan for every case. As the operator
// binary (--job): writes out_z.bin = [1, 2, 3, 4] (float32) for every case of the job, then
// `result` as each case's result file.
std::string fake_operator(const std::string& result_expression) {
    return "#!/usr/bin/python3\n"
           "import json, struct, sys\n"
           "job = json.load(open(sys.argv[2]))\n"
           "if sys.argv[1] == '--tiling':\n"
           "    for c in job['cases']:\n"
           "        open(c['tiling'], 'w').write(json.dumps({'status': 'ok', 'block_dim': 1, 'tiling_key': 0, 'workspace_bytes': 0,\n"
           "            'tiling_data': '', 'inputs': [], 'outputs': [{'name': 'z', 'dynamic': False}]}))\n"
           "    sys.exit(0)\n"
           "for c in job['cases']:\n"
           "    for o in c['outputs']:\n"
           "        open(o['file'], 'wb').write(struct.pack('<4f', 1, 2, 3, 4))\n"
           "    open(c['result'], 'w').write(" + result_expression + ")\n";
}

class ResultForgery : public testing::ScratchTest {
protected:
    void SetUp() override {
        ScratchTest::SetUp();
        m_case.name = "small";
        m_case.golden.kind = GoldenSpec::Kind::python;
        m_case.outputs = {TensorSpec{.name = "z", .dtype = DType::f32, .shape = {4}}};
        auto data = std::make_shared<CaseData>();
        data->expected = {{1, 2, 3, 4}};
        m_data = data;
        fs::create_directories(m_dir / "small");
        // 4 outputs bytes * 4 at 1000 GB/s is nothing: the floor is the 2 us launch overhead.
        m_options.soc_description = {{"launch", {{"overhead_us", 2.0}}}, {"gm", {{"bandwidth_gbps", 1000.0}}}};
        m_options.timeout_seconds = 20;
    }

    CaseResult run(const std::string& result_expression) {
        const fs::path binary = m_dir / "operator";
        EXPECT_TRUE(write_atomic(binary, fake_operator(result_expression)));
        ::chmod(binary.c_str(), 0755);
        KernelBuild kernel{binary, "fake_kernel", 1, {}, false, binary};
        auto results = run_cases({CaseRun{&m_case, m_data, m_dir / "small"}}, kernel, "Fake", m_options, {}, m_dir);
        EXPECT_TRUE(results) << (results ? "" : results.error().message);
        return results && !results->empty() ? results->front() : CaseResult{};
    }

    Case m_case;
    std::shared_ptr<const CaseData> m_data;
    EvalOptions m_options;
};

TEST_F(ResultForgery, AnHonestResultPasses) {
    const auto r = run("json.dumps({'status': 'ok', 'timing': {'latency_us': 6.5}})");
    EXPECT_EQ(r.status, EvalStatus::ok) << r.reason;
    EXPECT_EQ(r.latency_us, 6.5);
}

TEST_F(ResultForgery, ALatencyBelowWhatTheSocCanDoIsRefused) {
    const auto r = run("json.dumps({'status': 'ok', 'timing': {'latency_us': 0.25}})");
    EXPECT_EQ(r.status, EvalStatus::run_failed);
    EXPECT_NE(r.reason.find("claims 0.25"), std::string::npos) << r.reason;
    EXPECT_FALSE(r.latency_us);
}

TEST_F(ResultForgery, ResultsOfTheWrongShapeAreRefused) {
    for (const char* forged : {"json.dumps({'status': 'ok', 'timing': {'latency_us': -1}})",
                               "json.dumps({'status': 'ok', 'timing': {'latency_us': 'fast'}})",
                               "json.dumps({'status': 'ok', 'timing': 5})", "json.dumps({'status': 'great'})",
                               "json.dumps([1, 2, 3])", "'{\"status\": \"ok\", \"timing\": {\"latency_us\": 1e999}}'", "'not json'"}) {
        const auto r = run(forged);
        EXPECT_EQ(r.status, EvalStatus::run_failed) << forged;
        EXPECT_NE(r.reason.find("the harness does not write"), std::string::npos) << forged << " -> " << r.reason;
    }
}

// 200,000 levels of nesting once overflowed ascendopt's stack (exit 139, every rerun).
TEST_F(ResultForgery, ADeeplyNestedResultIsRefusedWithoutACrash) {
    for (const char* forged : {"'[' * 200000 + ']' * 200000", "'{\"a\":' * 200000 + '1' + '}' * 200000"}) {
        const auto r = run(forged);
        EXPECT_EQ(r.status, EvalStatus::run_failed) << forged;
        EXPECT_NE(r.reason.find("the harness does not write"), std::string::npos) << r.reason;
    }
}

TEST_F(ResultForgery, AHugeResultIsRefused) {
    const auto r = run("'{\"status\": \"ok\", \"pad\": \"' + 'x' * (20 << 20) + '\"}'");
    EXPECT_EQ(r.status, EvalStatus::run_failed);
    EXPECT_NE(r.reason.find("the harness does not write"), std::string::npos) << r.reason;
}

}  // namespace
}  // namespace ascendopt
