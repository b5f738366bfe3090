// Hostile candidates: kernels that try to escape, exhaust or fool the evaluator. Each must end
// with the right status and a short reason, the evaluator must carry on, and nothing outside
// the candidate's scratch folder may change. Escapes that would succeed silently are made
// visible: the kernel returns without writing its output when an escape worked, which turns
// the case into wrong_result.
#include <set>

#include "hostile_kernel.h"

using namespace ascendopt::e2e;
using ascendopt::ProcessResult;

TEST(Hostile, EndlessLoopTimesOut) {
    HostileKernel k("", "    for (volatile int spin = 1; spin;) {}");
    const auto r = k.eval();
    EXPECT_EQ(case_status(r), "timeout") << r.output;
    EXPECT_NE(case_reason(r).find("no result within"), std::string::npos) << r.output;
}

TEST(Hostile, ForkBombStartsNoProcess) {
    HostileKernel k("extern \"C\" int P(fo, rk)();", "    for (int i = 0; i < 1000; ++i) if (P(fo, rk)() >= 0) return;  // a child, or the parent of one");
    const auto r = k.eval();
    EXPECT_EQ(case_status(r), "ok") << "fork succeeded inside the operator: " << r.output;
}

TEST(Hostile, ExecAndSystemAreRefused) {
    HostileKernel k("extern \"C\" int P(sys, tem)(const char*);\nextern \"C\" int P(ex, ecv)(const char*, char* const*);",
                    "    if (P(sys, tem)(\"true\") == 0) return;\n"
                    "    char* argv[] = {(char*)\"/usr/bin/true\", nullptr};\n"
                    "    if (P(ex, ecv)(argv[0], argv) == 0) return;");
    const auto r = k.eval();
    EXPECT_EQ(case_status(r), "ok") << r.output;
}

TEST(Hostile, HugeAllocationIsResourceExceeded) {
    HostileKernel k("#include <vector>", "    std::vector<char> hoard(size_t(100) << 30, 1);\n    if (hoard[12345] != 1) return;");
    const auto r = k.eval();
    EXPECT_EQ(case_status(r), "resource_exceeded") << r.output;
    EXPECT_NE(case_reason(r).find("memory"), std::string::npos) << r.output;
}

TEST(Hostile, SocketsAreRefused) {
    HostileKernel k("extern \"C\" int P(soc, ket)(int, int, int);", "    if (P(soc, ket)(2 /* AF_INET */, 1 /* SOCK_STREAM */, 0) >= 0) return;");
    const auto r = k.eval();
    EXPECT_EQ(case_status(r), "ok") << "a socket was opened: " << r.output;
}

TEST(Hostile, WritesOutsideScratchChangeNothing) {
    REQUIRE_SANDBOX();
    TempDir outside;
    const fs::path target = outside.path / "escaped.txt";
    HostileKernel k(k_open_decl, "    P(op, en)(\"" + target.string() + "\", 0101 /* O_WRONLY|O_CREAT */, 0644);\n"
                                "    P(op, en)(\"" + (source_dir() / "escaped.txt").string() + "\", 0101, 0644);");
    const auto r = k.eval();
    EXPECT_EQ(case_status(r), "ok") << r.output;
    EXPECT_FALSE(fs::exists(target));
    EXPECT_FALSE(fs::exists(source_dir() / "escaped.txt"));
}

TEST(Hostile, CannotReadTheUsersFilesOrTheGolden) {
    REQUIRE_SANDBOX();
    TempDir outside;
    ASSERT_TRUE(ascendopt::write_atomic(outside.path / "secret.txt", "token"));
    HostileKernel k(k_open_decl, "");
    const std::string golden = (k.op.dir() / "golden.py").string();
    k.op.edit("op_kernel/exp_custom.cpp", "    GET_TILING_DATA(t, tiling);\n",
              "    GET_TILING_DATA(t, tiling);\n"
              "    if (P(op, en)(\"" + (outside.path / "secret.txt").string() + "\", 0) >= 0) return;\n"
              "    if (P(op, en)(\"" + golden + "\", 0) >= 0) return;\n"
              "    if (P(op, en)(\"" + (source_dir() / "README.md").string() + "\", 0) >= 0) return;\n");
    const auto r = k.eval();
    EXPECT_EQ(case_status(r), "ok") << "the kernel read a file outside its sandbox: " << r.output;
}

// The flood ends in a crash, so the report carries the operator's output: its head and tail only.
TEST(Hostile, MegabytesOfOutputAreCutShort) {
    HostileKernel k("#include <cstdio>",
                    "    for (int i = 0; i < 20000; ++i) std::printf(\"spam spam spam spam spam spam spam %d\\n\", i);\n"
                    "    *(volatile int*)nullptr = 1;");
    const auto r = k.eval();
    EXPECT_EQ(case_status(r), "run_failed") << r.output.substr(0, 2000);
    const auto doc = json_of(r);
    ASSERT_TRUE(doc.is_object()) << r.output.substr(0, 2000);
    const std::string tail = doc["cases"][0].value("log_tail", "");
    EXPECT_LT(tail.size(), size_t(64 * 1024)) << "the operator's output reached the report uncut";
    EXPECT_NE(tail.find("bytes omitted"), std::string::npos) << tail.substr(0, 2000);
}

TEST(Hostile, SegfaultIsRunFailed) {
    HostileKernel k("", "    *(volatile int*)nullptr = 1;");
    const auto r = k.eval();
    EXPECT_EQ(case_status(r), "run_failed") << r.output;
    EXPECT_NE(case_reason(r).find("segmentation fault"), std::string::npos) << r.output;
}

TEST(Hostile, AbortIsRunFailed) {
    HostileKernel k("#include <cstdlib>", "    std::abort();");
    const auto r = k.eval();
    EXPECT_EQ(case_status(r), "run_failed") << r.output;
    EXPECT_NE(case_reason(r).find("aborted (SIGABRT"), std::string::npos) << r.output;
}

// Every block calls exit while the others still run: the case must end in the one verdict
// that names the call, not in whatever the process's destructors racing the kernel produce.
TEST(Hostile, EarlyExitBeforeWritingOutputsIsRunFailed) {
    HostileKernel k("#include <cstdlib>", "    std::exit(0);");
    const auto r = k.eval();
    EXPECT_EQ(case_status(r), "run_failed") << r.output;
    EXPECT_NE(case_reason(r).find("called exit(0) in the kernel (block"), std::string::npos) << r.output;
    EXPECT_NE(case_reason(r).find("without a result"), std::string::npos) << r.output;
}

TEST(Hostile, SecretsInOurEnvironmentAreInvisible) {
    HostileKernel k("extern \"C\" char* P(get, env)(const char*);", "    if (P(get, env)(\"ASCENDOPT_TEST_API_KEY\")) return;");
    for (const bool sandboxed : {true, false}) {
        std::vector<std::string> args = {"eval", k.op.dir().string(), "--case", "ragged[float32]", "--json", "-q", "--no-screen"};
        if (!sandboxed) args.push_back("--unsandboxed");
        const auto r = run_cli(args, {{"ASCENDOPT_TEST_API_KEY", "sk-secret"}});
        EXPECT_EQ(case_status(r), "ok") << (sandboxed ? "sandboxed: " : "unsandboxed: ") << r.output;
    }
}

// Without bubblewrap, ascendopt refuses to run candidates unless told to, and then says so.
TEST(Hostile, NoBubblewrapMeansRefusalOrAnExplicitUnsandboxedRun) {
    TempDir path;  // every program of /usr/bin but bwrap
    for (const auto& e : fs::directory_iterator("/usr/bin"))
        if (e.path().filename() != "bwrap") fs::create_symlink(e.path(), path.path / e.path().filename());
    const std::map<std::string, std::string> env = {{"PATH", path.path.string()}};
    const auto refused = run_cli({"eval", "ops/exp_custom", "--case", "ragged[float32]", "-q"}, env);
    EXPECT_EQ(refused.exit_code, 3) << refused.output;
    EXPECT_NE(refused.output.find("bubblewrap (bwrap) is not installed"), std::string::npos) << refused.output;
    EXPECT_NE(refused.output.find("--unsandboxed"), std::string::npos) << refused.output;
    const auto unconfined = run_cli({"eval", "ops/exp_custom", "--case", "ragged[float32]", "--unsandboxed", "--json"}, env);
    EXPECT_EQ(unconfined.exit_code, 0) << unconfined.output;
    EXPECT_EQ(json_of(unconfined).value("sandbox", ""), "none") << unconfined.output;
    EXPECT_NE(unconfined.output.find("warning: --unsandboxed"), std::string::npos) << unconfined.output;
}

// Without --no-screen, the static screen rejects such code before building it, spelled plainly
// or pasted together.
TEST(Hostile, PlainEscapesAreRejectedBeforeTheBuild) {
    HostileKernel k("#include <unistd.h>", "    if (fork() == 0) return;");
    const auto r = run_cli({"eval", k.op.dir().string(), "--case", "ragged[float32]", "--json", "-q"});
    EXPECT_EQ(r.exit_code, 1) << r.output;
    const auto doc = json_of(r);
    EXPECT_EQ(doc.value("status", ""), "rejected") << r.output;
    EXPECT_NE(doc.value("reason", "").find("op_kernel/exp_custom.cpp:"), std::string::npos) << r.output;
    EXPECT_NE(doc.value("reason", "").find("unistd.h"), std::string::npos) << r.output;
}

TEST(Hostile, PastedNamesAreRejected) {
    HostileKernel k("extern \"C\" int P(fo, rk)();", "    if (P(fo, rk)() == 0) return;");
    const auto r = run_cli({"eval", k.op.dir().string(), "--case", "ragged[float32]", "--json", "-q"});
    EXPECT_EQ(json_of(r).value("status", ""), "rejected") << r.output;
    EXPECT_NE(json_of(r).value("reason", "").find("starts a process (fork), after macro expansion"), std::string::npos) << r.output;
}

TEST(Hostile, TheEvaluatorCarriesOnAfterEachOfThem) {
    // The same evaluator run: a crashing operator, then a healthy one, both reported.
    HostileKernel bad("", "    *(volatile int*)nullptr = 1;");
    const auto r = run_cli({"eval", bad.op.dir().string(), "ops/exp_custom", "--case", "ragged[float32]", "-q"});
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find("1 of 2 operators passed"), std::string::npos) << r.output;
}
