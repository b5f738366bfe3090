// Candidate code touches only what it owns (docs/sandbox.md, "The object gate" and "What kernel
// code may write"): each test is an attack a red team or an LLM writing ordinary but wrong C++
// made work once, evaluated the way every real evaluation is (screen on, sandboxed), with the
// outcome the design gives it.
#include <gtest/gtest.h>

#include "hostile_kernel.h"

namespace ascendopt::e2e {
namespace {

// exp_custom's perf case with `snippet` run first in every block (see HostileKernel).
ProcessResult perf_with(const std::string& includes, const std::string& snippet) {
    HostileKernel k(includes, snippet);
    return run_cli({"eval", k.op.dir().string(), "--case", "perf", "--json", "-q"});
}

// exp_custom with `before` put before its host source's first include, `in_tiling` at the start
// of its tiling function and `after` at its end.
struct HostileHost {
    OperatorCopy op{"exp_custom"};
    HostileHost(const std::string& before, const std::string& in_tiling, const std::string& after = "") {
        if (!before.empty()) op.edit("op_host/exp_custom.cpp", "#include", before + "\n#include");
        if (!in_tiling.empty())
            op.edit("op_host/exp_custom.cpp", "static ge::graphStatus TilingFunc(gert::TilingContext* context)\n{",
                    "static ge::graphStatus TilingFunc(gert::TilingContext* context)\n{\n" + in_tiling);
        if (!after.empty()) op.write("op_host/exp_custom.cpp", *read_text(op.dir() / "op_host/exp_custom.cpp") + "\n" + after + "\n");
    }
    ProcessResult eval() { return run_cli({"eval", op.dir().string(), "--case", "ragged[float32]", "--json", "-q"}); }
};

// The JSON library's shortest-form number formatter, which the harness prints latencies with.
const std::string k_json_to_chars =
    "namespace nlohmann { inline namespace json_abi_v3_11_2 { namespace detail {\n"
    "template <typename FloatType> char* to_chars(char* first, const char* last, FloatType value);\n";

void expect_refused_by_the_gate(const ProcessResult& r, const std::string& says, const std::string& what) {
    EXPECT_EQ(top_status(r), "rejected") << what << "\n" << r.output;
    EXPECT_NE(top_reason(r).find("object check"), std::string::npos) << what << "\n" << top_reason(r);
    EXPECT_NE(top_reason(r).find(says), std::string::npos) << what << "\n" << top_reason(r);
}

}  // namespace

// std::copy_n of a tile of GM compiles to a call of memmove, which ran uncharged: 4.67 us
// against the honest 6.35. A kernel's memory functions are now its own scalar accesses, in
// pieces of at most 8 bytes: the copy costs at least half of the element loop it replaces.
TEST(Confinement, ACopyOfGmIsChargedAsTheScalarLoopItReplaces) {
    REQUIRE_SANDBOX();
    const std::string sink =
        "    volatile float sink = 0;\n"
        "    for (int i = 0; i < 256; i += 64) sink = sink + tile[i];\n";
    const std::string by_loop = "    float tile[256];\n    for (int i = 0; i < 256; ++i) tile[i] = ((__gm__ float*)x)[i];\n" + sink;
    const std::string by_copy = "    float tile[256];\n    std::copy_n((__gm__ float*)x, 256, tile);\n" + sink;
    // A plain struct copy, which the compiler makes a memcpy call or a block move.
    const std::string by_memcpy =
        "    struct Tile { float v[256]; };\n    Tile whole = *(__gm__ const Tile*)x;\n    const float* tile = whole.v;\n" + sink;
    const double honest = case_latency(perf_with("", ""));
    const double loop = case_latency(perf_with("#include <algorithm>", by_loop));
    const double copy = case_latency(perf_with("#include <algorithm>", by_copy));
    const double builtin = case_latency(perf_with("", by_memcpy));
    ASSERT_GT(honest, 0);
    ASSERT_GT(loop, honest) << "the element loop should cost scalar GM reads";
    EXPECT_GE(copy - honest, 0.45 * (loop - honest)) << "honest " << honest << " loop " << loop << " copy_n " << copy;
    EXPECT_GE(builtin - honest, 0.45 * (loop - honest)) << "honest " << honest << " loop " << loop << " memcpy " << builtin;
}

// Kernel code calling what the device does not have, or what runs uninstrumented.
TEST(Confinement, KernelCodeCallsOnlyTheApiLibmAndItsOwnCode) {
    REQUIRE_SANDBOX();
    struct Attack {
        std::string includes, snippet, says;
    };
    const Attack attacks[] = {
        // A glibc alias of memcpy the rename does not cover.
        {"extern \"C\" void* __mempcpy(void*, const void*, unsigned long);",
         "    float tile[64];\n    __mempcpy(tile, (__gm__ float*)x, sizeof tile);\n    if (tile[3] == 1234.5f) return;", "__mempcpy"},
        // A thread the twin never started: no core, nothing checked or charged.
        {"extern \"C\" int thrd_create(unsigned long*, int (*)(void*), void*);\nextern \"C\" int thrd_join(unsigned long, int*);\n"
         "static int work(void*) { return 0; }",
         "    unsigned long th;\n    if (thrd_create(&th, work, nullptr) == 0) thrd_join(th, nullptr);", "thrd_create"},
        {"static void* work(void*) { return nullptr; }",
         "    __gthread_t th;\n    if (__gthread_create(&th, work, nullptr) == 0) __gthread_join(th, nullptr);", "pthread_create"},
        // Paging through memory to find the twin's.
        {"extern \"C\" int mincore(void*, unsigned long, unsigned char*);",
         "    unsigned char v;\n    if (mincore((void*)x, 1, &v) == 0 && v == 77) return;", "mincore"},
    };
    for (const auto& a : attacks) {
        HostileKernel k(a.includes, a.snippet);
        expect_refused_by_the_gate(k.eval_screened(), a.says, a.snippet);
    }
}

// An extern "C" helper defined in op_host/ and called by the kernel ran uninstrumented.
TEST(Confinement, KernelCodeCannotCallHostCode) {
    REQUIRE_SANDBOX();
    HostileKernel k("extern \"C\" float fast_sum(const float* p, int n);",
                    "    if (fast_sum((__gm__ float*)x, 64) == 1234.5f) return;");
    k.op.edit("op_host/exp_custom.cpp", "#include",
              "extern \"C\" float fast_sum(const float* p, int n) { float s = 0; for (int i = 0; i < n; ++i) s += p[i]; return s; }\n"
              "#include");
    expect_refused_by_the_gate(k.eval_screened(), "only host code defines", "fast_sum");
}

// Host code that replaces what the harness runs: the parser of the SoC's clock, the allocator
// (which ran inside libstdc++'s start-up, before the walls), the JSON number formatter.
TEST(Confinement, HostCodeCannotReplaceWhatTheHarnessRuns) {
    REQUIRE_SANDBOX();
    const std::pair<std::string, std::string> attacks[] = {
        {"extern \"C\" double strtod(const char* __restrict s, char** __restrict end) noexcept\n"
         "{ if (end) *end = (char*)s + 1; return 100.0; }",
         "strtod"},
        {"static char pool[1 << 24];\nstatic std::size_t used;\n"
         "extern \"C\" void* malloc(std::size_t n) noexcept { void* p = pool + used; used += (n + 15) / 16 * 16; return p; }",
         "malloc"},
        // The library's own header is out of the screen's allow-list; its template, declared by
        // hand, mangles the same.
        {k_json_to_chars + "template <> char* to_chars<double>(char* first, const char*, double) { *first++ = '0'; return first; }\n}}}",
         "reserved namespace nlohmann"},
    };
    for (const auto& [code, says] : attacks) {
        HostileHost h("", "", code);
        expect_refused_by_the_gate(h.eval(), says, code);
    }
}

// An inline specialisation is a weak definition, which the link never prefers to the twin's own
// copy: it is allowed and changes nothing.
TEST(Confinement, AnInlineSpecialisationOfTheTwinsLibrariesChangesNothing) {
    REQUIRE_SANDBOX();
    HostileHost h("", "",
                  k_json_to_chars +
                      "template <> inline char* to_chars<double>(char* first, const char*, double) { *first++ = '0'; return first; }\n"
                      "}}}\nvoid* volatile use_it = (void*)&nlohmann::json_abi_v3_11_2::detail::to_chars<double>;");
    const auto r = h.eval();
    const auto honest = run_cli({"eval", "ops/exp_custom", "--case", "ragged[float32]", "--json", "-q"});
    if (top_status(r) == "rejected") {
        EXPECT_NE(top_reason(r).find("nlohmann"), std::string::npos) << r.output;
        return;
    }
    EXPECT_EQ(case_status(r), "ok") << r.output;
    EXPECT_EQ(case_latency(r), case_latency(honest)) << r.output;
}

// Host tiling found the perf case's open result.json through /proc/self/fd and rewrote it.
TEST(Confinement, HostCodeCannotReachFileDescriptors) {
    REQUIRE_SANDBOX();
    HostileHost h("extern \"C\" long readlink(const char*, char*, unsigned long);\n"
                  "extern \"C\" int dprintf(int, const char*, ...);",
                  "    char target[64];\n"
                  "    for (int fd = 3; fd < 32; ++fd) if (readlink((\"/proc/self/fd/\" + std::to_string(fd)).c_str(), target, sizeof target) > 0)"
                  " (void)dprintf(fd, \"{}\");\n");
    expect_refused_by_the_gate(h.eval(), "readlink", "readlink");
}

// Kernel code may write its GM tensors, its buffers, its own stack and statics; a write anywhere
// else (found by arithmetic from its own statics, or the host heap) is refused where it happens.
TEST(Confinement, KernelWritesOutsideWhatItOwnsFail) {
    REQUIRE_SANDBOX();
    const std::pair<std::string, std::string> attacks[] = {
        {"static long mine[4];", "    volatile long* below = mine - 4096;\n    below[0] = below[0];"},
        {"#include <cstdlib>", "    volatile int* heap = (volatile int*)malloc(64);\n    heap[0] = 1;\n    free((void*)heap);"},
    };
    for (const auto& [globals, body] : attacks) {
        HostileKernel k(globals, body);
        const auto r = k.eval_screened();
        EXPECT_EQ(case_status(r), "run_failed") << body << "\n" << r.output;
        EXPECT_NE(case_reason(r).find("does not own"), std::string::npos) << body << "\n" << r.output;
    }
    // Its own statics and stack stay writable.
    HostileKernel own("static long mine[4];", "    long local[4] = {1, 2, 3, 4};\n    mine[GetBlockIdx() % 4] += local[GetBlockIdx() % 4];");
    EXPECT_EQ(case_status(own.eval_screened()), "ok");
}

// GetPlatformInfo hands tiling the SoC description the timing model reads; editing it (the clock
// times 100) made every latency 100 times smaller. It is read-only: the edit faults.
TEST(Confinement, TheSocDescriptionCannotBeEdited) {
    REQUIRE_SANDBOX();
    HostileHost h("#include <type_traits>",
                  "    {\n"
                  "        const auto& soc = context->GetPlatformInfo()->soc();\n"
                  "        auto& edit = const_cast<std::remove_const_t<std::remove_reference_t<decltype(soc)>>&>(soc);\n"
                  "        edit.timing.clock_ghz *= 100;\n"
                  "    }\n");
    const auto r = h.eval();
    ASSERT_NE(top_status(r), "rejected") << "the screen should not need to see this: " << r.output;
    EXPECT_EQ(case_status(r), "run_failed") << "the SoC was edited: " << r.output;
    // Making its page writable first takes a raw system call, which host code's syscall() does
    // not make (it allows the thread and process ids only). Behind the screen, which refuses it.
    HostileHost raw("#include <type_traits>\nextern \"C\" long syscall(long, ...) noexcept;",
                    "    {\n"
                    "        const auto& soc = context->GetPlatformInfo()->soc();\n"
                    "        const unsigned long page = (unsigned long)&soc & ~4095ul;\n"
                    "        (void)syscall(10 /* mprotect */, page, 8192ul, 3 /* PROT_READ | PROT_WRITE */);\n"
                    "        auto& edit = const_cast<std::remove_const_t<std::remove_reference_t<decltype(soc)>>&>(soc);\n"
                    "        edit.timing.clock_ghz *= 100;\n"
                    "    }\n");
    const auto u = run_cli({"eval", raw.op.dir().string(), "--case", "ragged[float32]", "--json", "-q", "--no-screen"});
    EXPECT_EQ(case_status(u), "run_failed") << "the SoC was made writable: " << u.output;
}

// Host code is not instrumented: it can scan the memory around its own statics for the clock
// it reads through GetPlatformInfo and overwrite every copy it finds. The copy the timing model
// uses is not among them (it is read-only, elsewhere): the scan changes nothing, or faults.
TEST(Confinement, AHostScanForTheClockChangesNothing) {
    REQUIRE_SANDBOX();
    HostileHost h("static volatile double anchor = 1.0;",
                  "    {\n"
                  "        const double clock = context->GetPlatformInfo()->soc().timing.clock_ghz;\n"
                  "        volatile double* p = &anchor;\n"
                  "        for (long i = -4096; i < 4096; ++i) if (p[i] == clock) p[i] = clock * 100;\n"
                  "    }\n");
    const auto r = h.eval();
    const auto honest = run_cli({"eval", "ops/exp_custom", "--case", "ragged[float32]", "--json", "-q"});
    ASSERT_NE(top_status(r), "rejected") << r.output;
    if (case_status(r) == "ok") EXPECT_EQ(case_latency(r), case_latency(honest)) << r.output;
}

// Host code is not instrumented, and may start threads (CANN's matmul tiling keeps one). Such a
// thread once ran on in the operator's process while the blocks ran, within reach of the
// timelines and the result files. Tiling now runs in a process of its own that ends before any
// block starts: this thread waits until the rest of its process has burnt 5 ms of CPU (the
// launch of the perf case takes about 15 ms; the rest of the tiling process well under 1 ms),
// then aborts. Before the split it aborted the perf case; now it never gets there. Behind the
// screen, which refuses threads in candidate code.
TEST(Confinement, AThreadOfTheHostCodeEndsWithTheTiling) {
    REQUIRE_SANDBOX();
    HostileHost h("#include <pthread.h>\n#include <time.h>\n#include <cstdlib>\n"
                  "static double cpu_seconds(clockid_t c) { timespec t{}; clock_gettime(c, &t); return double(t.tv_sec) + double(t.tv_nsec) * 1e-9; }\n"
                  "static double others() { return cpu_seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu_seconds(CLOCK_THREAD_CPUTIME_ID); }\n"
                  "static void* lurk(void*) { const double start = others(); while (others() - start < 0.005) {} std::abort(); }\n",
                  "    {\n"
                  "        static bool started = false;\n"
                  "        pthread_t t;\n"
                  "        if (!started && pthread_create(&t, nullptr, lurk, nullptr) == 0) { started = true; pthread_detach(t); }\n"
                  "    }\n");
    const auto r = run_cli({"eval", h.op.dir().string(), "--case", "perf", "--json", "-q", "--no-screen"});
    EXPECT_EQ(case_status(r), "ok") << "the host code's thread ran during the launch: " << r.output;
}

// The tiling file the host process writes is a claim, as a result file is: a forged one (here
// written by host code through the descriptor the harness opened for it) is refused, and its
// case fails with the reason, not ascendopt.
TEST(Confinement, AForgedTilingPlanIsRefused) {
    REQUIRE_SANDBOX();
    HostileHost h("extern \"C\" long pwrite(int, const void*, unsigned long, long);\nextern \"C\" void _exit(int);\n",
                  "    {\n"
                  "        static const char forged[] = \"{\\\"status\\\": \\\"ok\\\", \\\"block_dim\\\": 100000}\";\n"
                  "        for (int fd = 3; fd < 64; ++fd) pwrite(fd, forged, sizeof forged - 1, 0);\n"
                  "        _exit(0);\n"
                  "    }\n");
    const auto r = run_cli({"eval", h.op.dir().string(), "--case", "ragged[float32]", "--json", "-q", "--no-screen"});
    EXPECT_EQ(case_status(r), "run_failed") << r.output;
    EXPECT_NE(r.output.find("wrote a tiling the harness does not write"), std::string::npos) << r.output;
}

}  // namespace ascendopt::e2e
