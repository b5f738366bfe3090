// Reward-hacking probes: kernels that would look correct and fast to a careless evaluator.
// Each must be caught (wrong_result on the case that exposes it).
#include <cstring>

#include "cli_runner.h"

using namespace ascendopt::e2e;
using ascendopt::ProcessResult;

namespace {

// exp_custom with `snippet` run first in every block (after the tiling is read into `t`).
OperatorCopy cheating_exp(const std::string& snippet, const std::string& globals = "") {
    OperatorCopy op("exp_custom");
    op.edit("op_kernel/exp_custom.cpp", "extern \"C\" __global__ __aicore__ void exp_custom(",
            globals + "\nextern \"C\" __global__ __aicore__ void exp_custom(");
    op.edit("op_kernel/exp_custom.cpp", "    GET_TILING_DATA(t, tiling);", "    GET_TILING_DATA(t, tiling);\n" + snippet);
    return op;
}

std::map<std::string, std::string> statuses(const ProcessResult& r) {
    std::map<std::string, std::string> out;
    const auto doc = json_of(r);
    if (doc.is_object())
        for (const auto& c : doc["cases"]) out[c["name"]] = c["status"];
    return out;
}

}  // namespace

TEST(Probes, ComputingOnlyThePerfShapeIsCaught) {
    auto op = cheating_exp("    if (t.totalLength != 1048576) return;");
    const auto r = run_cli({"eval", op.dir().string(), "--json", "-q"});
    EXPECT_EQ(r.exit_code, 1) << r.output;
    auto s = statuses(r);
    EXPECT_EQ(s["perf"], "ok");
    EXPECT_EQ(s["ragged[float16]"], "wrong_result");
}

TEST(Probes, SkippingWorkOnSomeCoresIsCaught) {
    auto op = cheating_exp("    if (GetBlockIdx() == 3) return;");
    const auto r = run_cli({"eval", op.dir().string(), "--json", "-q"});
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_EQ(statuses(r)["perf"], "wrong_result");
}

TEST(Probes, AnOutputElementNeverWrittenIsReportedWhateverItHolds) {
    // Block 3 writes nothing: its elements hold the run's poison, which no golden is compared
    // against; the twin counts the bytes no write reached and the check names them.
    auto op = cheating_exp("    if (GetBlockIdx() == 3) return;");
    const auto r = run_cli({"eval", op.dir().string(), "--json", "-q"});
    EXPECT_EQ(r.exit_code, 1) << r.output;
    const auto doc = json_of(r);
    bool seen = false;
    for (const auto& c : doc["cases"]) {
        if (c["name"] != "perf") continue;
        seen = true;
        EXPECT_EQ(c["status"], "wrong_result");
        const std::string reason = c["reason"];
        EXPECT_NE(reason.find("elements were never written (the first: element "), std::string::npos) << reason;
        EXPECT_EQ(reason.find("(the first: element 0)"), std::string::npos) << "block 3's elements come after blocks 0-2's: " << reason;
    }
    EXPECT_TRUE(seen) << r.output;
}

TEST(Probes, SpecialCasingTheKnownShapesIsCaughtByTheHiddenCase) {
    // Correct on every shape of the manifest (1, 7x131, 48x256, 3x100003, 1048576), garbage elsewhere.
    auto op = cheating_exp(
        "    const uint32_t n = t.totalLength;\n"
        "    if (n != 1 && n != 917 && n != 12288 && n != 300009 && n != 1048576) return;");
    const auto r = run_cli({"eval", op.dir().string(), "--json", "-q"});
    EXPECT_EQ(r.exit_code, 1) << r.output;
    auto s = statuses(r);
    EXPECT_EQ(s["perf"], "ok");
    EXPECT_EQ(s["large[float32]"], "ok");
    EXPECT_EQ(s["hidden"], "wrong_result") << r.output.substr(0, 3000);
}

// The hidden shape follows from a nonce of each evaluation, not from --seed: a kernel cannot
// learn it from the command line. The result records the nonce, and ASCENDOPT_HIDDEN_NONCE
// reproduces that evaluation's shape.
TEST(Probes, TheHiddenShapeIsFreshForEveryEvaluationAndCanBeReproduced) {
    auto hidden_of = [](const ProcessResult& r) {
        const auto doc = json_of(r);
        if (doc.is_object())
            for (const auto& c : doc["cases"])
                if (c["name"] == "hidden") return std::make_pair(c.value("hidden_nonce", std::string()), c["outputs"][0].value("elements", int64_t(-1)));
        return std::make_pair(std::string("(no hidden case: ") + r.output.substr(0, 2000) + ")", int64_t(-1));
    };
    const std::vector<std::string> args = {"eval", "ops/exp_custom", "--seed", "1", "--no-timing", "--json", "-q"};
    const auto first = hidden_of(run_cli(args));
    const auto second = hidden_of(run_cli(args));
    ASSERT_FALSE(first.first.empty());
    ASSERT_GT(first.second, 0) << first.first;
    EXPECT_NE(first.first, second.first);
    EXPECT_NE(first.second, second.second) << "two evaluations draw the same shape about once in 35,000";
    const auto again = hidden_of(run_cli(args, {{"ASCENDOPT_HIDDEN_NONCE", first.first}}));
    EXPECT_EQ(again, first);
}

TEST(Probes, ReplayedOutputsFailOnFreshInputs) {
    // Record the outputs of the ragged fp32 case under seed 1, then build a kernel that writes them back.
    TempDir tmp;
    const auto rec = run_cli({"eval", "ops/exp_custom", "--case", "ragged[float32]", "--seed", "1", "--keep", "-q"}, {{"TMPDIR", tmp.path.string()}});
    ASSERT_EQ(rec.exit_code, 0) << rec.output;
    std::vector<char> recorded;
    for (const auto& e : fs::recursive_directory_iterator(tmp.path))
        if (e.path().filename() == "out_y.bin") recorded = *ascendopt::read_bytes(e.path());
    ASSERT_EQ(recorded.size(), 917u * 4);
    std::string table = "static const uint32_t k_replay[917] = {";
    for (size_t i = 0; i < 917; ++i) {
        uint32_t bits;
        std::memcpy(&bits, recorded.data() + 4 * i, 4);
        table += std::to_string(bits) + "u,";
    }
    table += "};";
    auto op = cheating_exp(
        "    if (t.totalLength == 917) {\n"
        "        if (GetBlockIdx() != 0) return;\n"
        "        GlobalTensor<uint32_t> out;\n"
        "        out.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t*>(y), 917);\n"
        "        for (int i = 0; i < 917; ++i) out.SetValue(i, k_replay[i]);\n"
        "        return;\n"
        "    }",
        table);
    const auto same = run_cli({"eval", op.dir().string(), "--case", "ragged[float32]", "--seed", "1", "--json", "-q"});
    EXPECT_EQ(statuses(same)["ragged[float32]"], "ok") << "the replay itself works on the inputs it was recorded on: " << same.output;
    const auto fresh = run_cli({"eval", op.dir().string(), "--case", "ragged[float32]", "--seed", "2", "--json", "-q"});
    EXPECT_EQ(statuses(fresh)["ragged[float32]"], "wrong_result") << fresh.output;
}
