// Integrity: a candidate cannot fake its speed, run code before the walls, take ascendopt down
// or leave anything behind. One test per attack that once worked (docs/sandbox.md, "Attacks
// the tests cover"); each fails if its wall is taken away.
#include "hostile_kernel.h"
#include "support/scripted_llm_server.h"
#include "util/task_cap.h"

namespace ascendopt::e2e {
namespace {

using testing::Scripted;
using testing::ScriptedLlmServer;

// Entries of `dir` whose names start with `prefix`.
std::vector<std::string> entries(const fs::path& dir, const std::string& prefix) {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.path().filename().string().rfind(prefix, 0) == 0) out.push_back(e.path().filename().string());
    return out;
}

// Processes whose command line mentions `marker`.
int processes_mentioning(const std::string& marker) {
    int n = 0;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator("/proc", ec)) {
        const std::string pid = e.path().filename().string();
        if (pid.find_first_not_of("0123456789") != std::string::npos || pid == std::to_string(::getpid())) continue;
        // A process may end while it is read (ESRCH): read_text reports that as an error where
        // an ifstream throws from underflow.
        const auto cmd = ascendopt::read_text(e.path() / "cmdline");
        if (cmd && cmd->find(marker) != std::string::npos) ++n;
    }
    return n;
}

// 1. Fake speed --------------------------------------------------------------------------------

TEST(Integrity, TheTwinsInternalsCannotBeNamed) {
    const std::pair<const char*, const char*> attacks[] = {
        // The accounting-free function marker, and the raw GM translation behind DataCopy.
        {"ASCENDOPT_TWIN_FN inline float free_exp(float v) { return v; }", ""},
        {"", "    (void)ascendopt_twin::gm_translate(0, 4, false, \"free\");"},
        // The same names put together by the preprocessor.
        {"#define Q(a, b) a##b\nQ(ASCENDOPT_, TWIN_FN) inline float free_exp(float v) { return v; }", ""},
    };
    for (const auto& [globals, body] : attacks) {
        HostileKernel k(globals, body);
        const auto r = k.eval_screened();
        EXPECT_EQ(r.exit_code, 1) << r.output;
        EXPECT_EQ(top_status(r), "rejected") << globals << body << "\n" << r.output;
        EXPECT_NE(top_reason(r).find("twin's internals"), std::string::npos) << r.output;
    }
}

// A kernel once rewrote a later case's result.json through fopen64 and reported 0.25 us.
TEST(Integrity, AResultFileCannotBeOpenedByTheCandidate) {
    const std::string attempt =
        "    for (const char* f : {\"result.json\", \"../perf/result.json\", \"../perf_float16_/result.json\", \"/proc/self/fd/3\"})\n"
        "        if (std::FILE* h = fopen64(f, \"r+\")) { std::fclose(h); return; }";
    HostileKernel k("#include <cstdio>", attempt);
    EXPECT_EQ(top_status(k.eval_screened()), "rejected");
    const auto forged = k.eval();
    const auto honest = run_cli({"eval", "ops/exp_custom", "--case", "ragged[float32]", "--timeout", "3", "--json", "-q"});
    EXPECT_EQ(case_status(forged), "ok") << "a result file was opened: " << forged.output;
    // Its failed attempts are scalar work of its own: never cheaper than the honest kernel.
    EXPECT_GT(case_latency(honest), 0) << honest.output;
    EXPECT_GE(case_latency(forged), case_latency(honest)) << forged.output;
}

// 2. Code before the walls -------------------------------------------------------------------

TEST(Integrity, StartUpCodeIsRefusedByTheScreenAndInTheObject) {
    struct Attack {
        const char* globals;
        const char* screen_says;
        const char* object_says;
    };
    const Attack attacks[] = {
        {"static volatile int ran;\nstatic void early() { ran = 1; }\n"
         "__attribute__((section(\".preinit_array\"), used)) static void (*early_entry)() = early;",
         "an attribute that changes what runs", ".preinit_array"},
        // (An empty constructor would be optimised away: this one does something.)
        {"static volatile int ran;\n__attribute__((constructor(100))) static void early() { ran = 1; }", "an attribute that changes what runs",
         "priority"},
        {"static volatile int ran;\n#define Q(a, b) a##b\n__attribute__((Q(constr, uctor)(100))) static void early() { ran = 1; }",
         "an attribute that changes what runs", "priority"},
    };
    for (const auto& a : attacks) {
        HostileKernel k(a.globals, "");
        const auto screened = k.eval_screened();
        EXPECT_EQ(top_status(screened), "rejected") << a.globals << "\n" << screened.output;
        EXPECT_NE(top_reason(screened).find(a.screen_says), std::string::npos) << screened.output;
        const auto unscreened = k.eval();  // the object check stands behind the screen
        EXPECT_EQ(top_status(unscreened), "rejected") << a.globals << "\n" << unscreened.output;
        EXPECT_NE(top_reason(unscreened).find(a.object_says), std::string::npos) << unscreened.output;
    }
}

// The names the host code reports (its tiling class, its parameters) are written into the
// kernel build's generated header, which no screen reads. A tiling class registered under a
// name with a newline once put code of its choice there; a parameter name can carry the same.
TEST(Integrity, NamesTheHostCodeReportsCannotSmuggleCodeIntoGeneratedSources) {
    // Behind the screen (which refuses naming the twin's registrar): a class whose type_info
    // carries a forged name, registered for the operator after its real tiling class.
    OperatorCopy forged("exp_custom");
    forged.edit("op_host/exp_custom.cpp", "OP_ADD(ExpCustom);",
                "OP_ADD(ExpCustom);\n"
                "struct ForgedName : std::type_info {\n"
                "    explicit ForgedName(const char* n) : std::type_info(n) {}\n"
                "};\n"
                "static const ForgedName forged_name(\"optiling::ExpCustomTilingData\\nint smuggled_by_the_registry = 1;\\n#define Z\");\n"
                "static ::ascendopt_twin::host::TilingClassRegistrar forged_registration(\"ExpCustom\", forged_name, 20);");
    const auto r = run_cli({"eval", forged.dir().string(), "--case", "ragged[float32]", "--json", "-q", "--no-screen"});
    EXPECT_EQ(top_status(r), "rejected") << r.output.substr(0, 3000);
    EXPECT_NE(top_reason(r).find("optiling::ExpCustomTilingData\\nint smuggled_by_the_registry = 1;\\n#define Z"), std::string::npos)
        << r.output.substr(0, 3000);
    // Screened, as every real evaluation: an optional input whose name holds a line of code.
    OperatorCopy param("exp_custom");
    param.edit("op_host/exp_custom.cpp", "        this->Output(\"y\")",
               "        this->Input(\"bias\\n# 1 \\\"kernel_operator.h\\\"\\n\").ParamType(OPTIONAL).DataType({ge::DT_FLOAT16, "
               "ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});\n        this->Output(\"y\")");
    const auto p = run_cli({"eval", param.dir().string(), "--case", "ragged[float32]", "--json", "-q"});
    EXPECT_EQ(top_status(p), "rejected") << p.output.substr(0, 3000);
    EXPECT_NE(top_reason(p).find("bias\\n# 1 \\\"kernel_operator.h\\\"\\n"), std::string::npos) << p.output.substr(0, 3000);
}

// 3. ascendopt itself (the forged result files are in unit/test_result_forgery.cpp) ------------

TEST(Integrity, AnMsopstFileNestedTooDeepIsAnError) {
    OperatorCopy op("exp_custom");
    fs::remove(op.dir() / "ascendopt.toml");
    fs::create_directories(op.dir() / "tests" / "st");
    op.write("tests/st/deep.json", std::string(100000, '[') + std::string(100000, ']'));
    const auto r = run_cli({"eval", op.dir().string(), "-q"});
    EXPECT_EQ(r.exit_code, 2) << r.output.substr(0, 2000);
    EXPECT_NE(r.output.find("ascendopt: error:"), std::string::npos) << r.output.substr(0, 2000);
    EXPECT_NE(r.output.find("levels deep"), std::string::npos) << r.output.substr(0, 2000);
}

// 4. Resources ----------------------------------------------------------------------------------

TEST(Integrity, TheCompilerHasAMemoryLimit) {
    // Eight million initializers from a few lines of macros.
    HostileKernel k("#define E8 1,1,1,1,1,1,1,1\n#define E64 E8,E8,E8,E8,E8,E8,E8,E8\n#define E512 E64,E64,E64,E64,E64,E64,E64,E64\n"
                    "#define E4K E512,E512,E512,E512,E512,E512,E512,E512\n#define E32K E4K,E4K,E4K,E4K,E4K,E4K,E4K,E4K\n"
                    "#define E256K E32K,E32K,E32K,E32K,E32K,E32K,E32K,E32K\n#define E2M E256K,E256K,E256K,E256K,E256K,E256K,E256K,E256K\n"
                    "volatile unsigned char hoard[] = {E2M,E2M,E2M,E2M};",
                    "");
    const auto start = std::chrono::steady_clock::now();
    const auto r = k.eval({"--compiler-memory", "0.5"});
    EXPECT_EQ(top_status(r), "build_failed") << r.output.substr(0, 3000);
    EXPECT_NE(top_reason(r).find("ran out of its 0.5 GiB of memory"), std::string::npos) << r.output.substr(0, 3000);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 300);
}

// Files: nothing can be created in the job folder or /tmp, and the inputs (read-only
// descriptors, read-only mounts) cannot be written, even by descriptor.
TEST(Integrity, NoFileCanBeCreatedOrAnInputWritten) {
    HostileKernel k("#include <fcntl.h>\n#include <unistd.h>\n#include <cstring>",
                    "    for (const char* f : {\"fill.bin\", \"/tmp/fill.bin\", \"../fill.bin\"}) {\n"
                    "        if (open(f, O_CREAT | O_WRONLY, 0644) >= 0) return;\n"
                    "        if (creat(f, 0644) >= 0) return;\n"
                    "        if (syscall(257 | 0x40000000 /* openat, x32 */, AT_FDCWD, f, O_CREAT | O_WRONLY, 0644) >= 0) return;\n"
                    "    }\n"
                    "    for (int fd = 3; fd < 256; ++fd) {\n"
                    "        char self[64] = \"/proc/self/fd/\", target[512] = {};\n"
                    "        int n = fd, at = 14;\n"
                    "        char digits[8]; int d = 0; do { digits[d++] = char('0' + n % 10); n /= 10; } while (n);\n"
                    "        while (d) self[at++] = digits[--d];\n"
                    "        if (readlink(self, target, sizeof target - 1) <= 0 || !std::strstr(target, \"in_\")) continue;\n"
                    "        if (pwrite(fd, \"x\", 1, 0) == 1) return;\n"
                    "        if (open(self, O_WRONLY) >= 0) return;\n"
                    "    }");
    const auto r = k.eval();
    EXPECT_EQ(case_status(r), "ok") << "a file was created or an input written: " << r.output;
}

// The descriptors the harness opened are the only way to write; each file may grow only to the
// size the case needs, so the job folder stays small (2.1 GB were once written in 8 s).
TEST(Integrity, TheJobFolderCannotBeFilled) {
    HostileKernel k("#include <unistd.h>\nstatic char junk[1 << 20];",
                    "    for (int fd = 3; fd < 256; ++fd)\n"
                    "        for (int mib = 0; mib < 256 && write(fd, junk, sizeof junk) > 0; ++mib) {}");
    TempDir tmp;
    const auto r = run_cli({"eval", k.op.dir().string(), "--case", "ragged[float32]", "--timeout", "20", "--json", "-q", "--no-screen",
                            "--keep"},
                           {{"TMPDIR", tmp.path.string()}});
    EXPECT_EQ(case_status(r), "run_failed") << r.output;
    uintmax_t written = 0;
    for (const auto& e : fs::recursive_directory_iterator(tmp.path))
        if (e.is_regular_file()) written += e.file_size();
    EXPECT_LT(written, uintmax_t(64) << 20) << "bytes written into the job folder";
}

TEST(Integrity, ThreadsAreCapped) {
    if (!tasks_capped()) GTEST_SKIP() << "no pids cgroup to cap tasks with on this machine (docs/sandbox.md)";
    HostileKernel k("#include <pthread.h>\nstatic pthread_mutex_t gate = PTHREAD_MUTEX_INITIALIZER;\n"
                    "static void* wait_at_gate(void*) { pthread_mutex_lock(&gate); pthread_mutex_unlock(&gate); return nullptr; }",
                    "    if (GetBlockIdx() == 0) {\n"
                    "        pthread_mutex_lock(&gate);\n"
                    "        pthread_attr_t small; pthread_attr_init(&small); pthread_attr_setstacksize(&small, 16384);\n"
                    "        int started = 0; pthread_t t;\n"
                    "        while (started < 6000 && pthread_create(&t, &small, wait_at_gate, nullptr) == 0) ++started;\n"
                    "        pthread_mutex_unlock(&gate);\n"
                    "        if (started >= 4200) return;\n"
                    "    }");
    const auto r = k.eval();
    EXPECT_EQ(case_status(r), "ok") << "more threads started than the cap: " << r.output;
}

// 5. Inputs that let nothing through -------------------------------------------------------------

TEST(Integrity, ManifestValuesThatCheckNothingAreErrors) {
    const std::pair<const char*, const char*> bad[] = {
        {"range = [-4.0, 4.0]", "range = [nan, 4.0]"},
        {"range = [-4.0, 4.0]", "range = [-inf, inf]"},
        {"range = [-4.0, 4.0]", "range = [-4.0, 4.0]\nrtol = -1.0"},
        {"range = [-4.0, 4.0]", "range = [-4.0, 4.0]\natol = nan"},
    };
    for (const auto& [from, to] : bad) {
        OperatorCopy op("exp_custom");
        op.edit("ascendopt.toml", from, to);
        const auto r = run_cli({"eval", op.dir().string(), "-q"});
        EXPECT_EQ(r.exit_code, 2) << to << "\n" << r.output;
        EXPECT_NE(r.output.find("finite"), std::string::npos) << to << "\n" << r.output;
    }
}

TEST(Integrity, ACaseThatCannotFitInMemoryIsRefusedBeforeItIsMade) {
    OperatorCopy op("exp_custom");
    op.edit("ascendopt.toml", "shape = [1048576]", "shape = [65536, 65535]");
    const auto r = run_cli({"eval", op.dir().string(), "--case", "perf", "-q"});
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("more than the 8.000 GiB memory limit"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("--memory"), std::string::npos) << r.output;
}

// 6. Secrets and leftovers ------------------------------------------------------------------------

// A key that looks like no key: only knowing it catches it.
const std::string k_plain_key = "corp-7Hq2mZ9xWvLk4";

std::map<std::string, std::string> echoing_llm(ScriptedLlmServer& server) {
    Scripted echo{.status = 401};
    echo.raw_body = R"({"error": {"message": "invalid api key )" + k_plain_key + R"("}})";
    server.set_default(echo);
    return {{"ASCENDOPT_LLM_BASE_URL", server.base_url()},
            {"ASCENDOPT_LLM_MODEL", "scripted-coder"},
            {"ASCENDOPT_LLM_API_KEY", k_plain_key},
            {"ASCENDOPT_LLM_BACKOFF", "0.01"}};
}

TEST(Integrity, AKeyEchoedByTheServerIsNeverPrinted) {
    ScriptedLlmServer server;
    const auto r = run_cli({"llm", "ping"}, echoing_llm(server));
    EXPECT_EQ(r.exit_code, 5) << r.output;
    EXPECT_NE(r.output.find("invalid api key [REDACTED]"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find(k_plain_key), std::string::npos) << r.output;
}

// Stage I that never reached its LLM says so and fails; the key the server echoed is in no
// file of the run.
TEST(Integrity, OptimizeWithAnLlmThatNeverAnswersSaysSoAndWritesNoKey) {
    ScriptedLlmServer server;
    TempDir tmp;
    ASSERT_TRUE(write_atomic(tmp.path / "bank.db", ""));
    const auto r = run_cli({"optimize", "ops/exp_custom", "--bank", (tmp.path / "bank.db").string(), "--budget", "4", "--out",
                            (tmp.path / "out").string()},
                           echoing_llm(server));
    EXPECT_EQ(r.exit_code, 5) << r.output;
    EXPECT_NE(r.output.find("ascendopt: error: Stage I never reached the LLM"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find(k_plain_key), std::string::npos) << r.output;
    ASSERT_TRUE(fs::exists(tmp.path / "out" / "summary.json")) << r.output;
    for (const auto& e : fs::recursive_directory_iterator(tmp.path / "out")) {
        if (!e.is_regular_file()) continue;
        auto bytes = read_bytes(e.path());
        ASSERT_TRUE(bytes);
        EXPECT_EQ(std::string(bytes->begin(), bytes->end()).find(k_plain_key), std::string::npos) << e.path();
    }
}

// A golden that fails, and one that sleeps: each fails its case in time; no scratch folder stays.
TEST(Integrity, GoldensTimeOutAndLeaveNothingBehind) {
    OperatorCopy op("exp_custom");
    op.write("golden.py", "import time\n\ndef exp_golden(x, y):\n    time.sleep(1000)\n");
    TempDir tmp;
    const auto start = std::chrono::steady_clock::now();
    const auto r = run_cli({"eval", op.dir().string(), "--case", "ragged[float32]", "--golden-timeout", "2", "--json", "-q"},
                           {{"TMPDIR", tmp.path.string()}});
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 60);
    EXPECT_EQ(case_status(r), "golden_failed") << r.output;
    EXPECT_NE(case_reason(r).find("did not finish within 2 s"), std::string::npos) << r.output;
    EXPECT_EQ(entries(tmp.path, "ascendopt-"), std::vector<std::string>{}) << "scratch folders stayed behind";
    EXPECT_EQ(processes_mentioning(tmp.path.string()), 0) << "the golden outlived its timeout";
}

// Ctrl-C (SIGINT) reaches a golden and what it started; kill -9 leaves folders that the next
// run sweeps away; an unsandboxed operator process dies with the ascendopt that started it.
TEST(Integrity, InterruptedRunsLeaveNoProcessAndTheirFoldersAreSwept) {
    TempDir tmp;
    const std::map<std::string, std::string> env = {{"TMPDIR", tmp.path.string()}};
    {
        OperatorCopy op("exp_custom");
        op.write("golden.py", "import subprocess\n\ndef exp_golden(x, y):\n    subprocess.run(['sleep', '1000'])\n");
        Background run({"eval", op.dir().string(), "--case", "ragged[float32]", "-q"}, env, tmp.path / "golden.log");
        const std::string sleeper("sleep\0" "1000", 10);  // its command line, NUL between arguments
        ASSERT_TRUE(eventually([&] { return processes_mentioning(sleeper) > 0; }, 60)) << *read_text(tmp.path / "golden.log");
        const int status = run.stop(SIGINT);
        EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) << status;
        EXPECT_TRUE(eventually([&] { return processes_mentioning(tmp.path.string()) + processes_mentioning(sleeper) == 0; }, 10))
            << "the golden or what it started survived Ctrl-C";
    }
    {
        HostileKernel k("", "    for (volatile int spin = 1; spin;) {}");
        Background run({"eval", k.op.dir().string(), "--case", "ragged[float32]", "--timeout", "600", "--no-screen", "--unsandboxed", "-q"},
                       env, tmp.path / "spin.log");
        ASSERT_TRUE(eventually([&] { return processes_mentioning((tmp.path / "ascendopt-eval-").string()) > 0; }, 120))
            << *read_text(tmp.path / "spin.log");
        run.stop(SIGKILL);
        EXPECT_TRUE(eventually([&] { return processes_mentioning(tmp.path.string()) == 0; }, 10)) << "the operator outlived ascendopt";
    }
    EXPECT_FALSE(entries(tmp.path, "ascendopt-eval-").empty()) << "kill -9 gives no chance to clean up";
    const auto next = run_cli({"eval", "ops/exp_custom", "--case", "one_element[float32]", "-q"}, env);
    EXPECT_EQ(next.exit_code, 0) << next.output;
    EXPECT_EQ(entries(tmp.path, "ascendopt-"), std::vector<std::string>{}) << "the next run did not sweep the abandoned folders";
}

}  // namespace
}  // namespace ascendopt::e2e
