// The static screen: escape hatches and foreign includes are caught with their line; comments,
// strings and the bundled operators' legitimate code pass.
#include <gtest/gtest.h>

#include "eval/operator_source.h"
#include "eval/screen.h"
#include "util/files.h"

using namespace ascendopt;

namespace {

std::optional<ScreenHit> screen(const std::string& text) { return screen_text(text, "/op/op_kernel/k.cpp", "/op"); }

}  // namespace

TEST(StaticScreen, CatchesEachKindOfEscapeWithItsLine) {
    const std::pair<const char*, const char*> cases[] = {
        {"void f() {\n  asm volatile(\"nop\");\n}", "inline assembly"},
        {"int g() {\n\n  return fork();\n}", "starts a process (fork)"},
        {"int g() { return std::system(\"ls\"); }", "starts a process"},
        {"int s = socket(2, 1, 0);", "uses the network"},
        {"auto* f = fopen(\"/etc/passwd\", \"r\");", "reads or writes files"},
        {"std::ifstream in(\"x\");", "reads or writes files"},
        {"const char* k = getenv(\"OPENAI_API_KEY\");", "environment"},
        {"void* h = dlopen(\"libc.so.6\", 1);", "loads code"},
        {"long r = syscall(57);", "raw system calls"},
        {"__attribute__((constructor)) void early() {}", "attribute that changes what runs"},
        {"#include <fstream>\n", "outside the allow-list (fstream)"},
        {"#include \"../../secrets.h\"\n", "outside the operator's folder (../../secrets.h)"},
        {"#include HEADER_MACRO\n", "include by macro"},
    };
    for (const auto& [code, reason] : cases) {
        const auto hit = screen(code);
        ASSERT_TRUE(hit) << code;
        EXPECT_NE(hit->reason.find(reason), std::string::npos) << code << " -> " << hit->reason;
    }
    EXPECT_EQ(screen("int g() {\n\n  return fork();\n}")->line, 3);
    EXPECT_EQ(screen("int g() {\n\n  return fork();\n}")->describe("/op"), "op_kernel/k.cpp:3: starts a process (fork): `return fork();`");
}

TEST(StaticScreen, CommentsStringsAndLongerNamesPass) {
    EXPECT_FALSE(screen("// fork() and system() are not called here\n/* socket\n open */ int x = 1;"));
    EXPECT_FALSE(screen("const char* msg = \"fork socket system\"; char c = '\\'';"));
    EXPECT_FALSE(screen("const char* raw = R\"(fork())\";"));
    EXPECT_FALSE(screen("int forked = 0; int systematic = 1; int opened = 2;"));
    EXPECT_FALSE(screen("#include \"kernel_operator.h\"\n#include <cstdint>\n#include \"register/op_def_registry.h\"\n"));
}

TEST(StaticScreen, OwnHeadersOfTheOperatorPass) {
    auto dir = make_temp_dir(std::filesystem::temp_directory_path(), "ascendopt-screen");
    ASSERT_TRUE(dir);
    std::filesystem::create_directories(*dir / "op_host");
    ASSERT_TRUE(write_atomic(*dir / "op_host" / "t_tiling.h", "#pragma once\n"));
    EXPECT_FALSE(screen_text("#include \"t_tiling.h\"\n", *dir / "op_host" / "t.cpp", *dir));
    EXPECT_TRUE(screen_text("#include \"missing.h\"\n", *dir / "op_host" / "t.cpp", *dir));
    std::filesystem::remove_all(*dir);
}

TEST(StaticScreen, EveryBundledOperatorPasses) {
    for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(ASCENDOPT_TEST_SOURCE_DIR) / "ops")) {
        auto op = load_operator(e.path());
        ASSERT_TRUE(op) << e.path();
        const auto hit = screen_sources(op->all_files, op->root);
        EXPECT_FALSE(hit) << hit->describe(op->root);
    }
}

// What let a kernel fake its speed or reach the harness's files (issue 15), each with the way
// it was hidden: a name of the twin's internals, an attribute that turns instrumentation off,
// I/O the old list missed, a line splice, a digraph directive, a pasted name.
TEST(StaticScreen, TheTwinsInternalsAndTheirDisguises) {
    const std::pair<const char*, const char*> cases[] = {
        {"auto* p = ascendopt_twin::gm_translate(x, 64, false, \"\");", "twin's internals (ascendopt_twin)"},
        {"ASCENDOPT_TWIN_FN void fast() {}", "twin's internals (ASCENDOPT_TWIN_FN)"},
        {"namespace t = ascendopt_twin;", "twin's internals"},
        {"__attribute__((no_sanitize_address)) void f() {}", "(no_sanitize_address)"},
        {"__attribute__((__no_instrument_function__, aligned(8))) void f() {}", "(__no_instrument_function__)"},
        {"[[gnu::no_sanitize(\"kernel-address\")]] void f() {}", "(no_sanitize)"},
        {"__attribute__((section(\".preinit_array\"))) void (*p)() = 0;", "(section)"},
        {"__attribute__((constructor(100))) void early() {}", "(constructor)"},
        {"__attribute__((copy(other))) void f() {}", "(copy)"},
        {"[[clang::optnone]] void f() {}", "(clang::optnone)"},
        {"FILE* f = fopen64(\"../perf/result.json\", \"w\");", "reads or writes files (fopen64)"},
        {"::write(3, buf, 10);", "writes through a file descriptor (write)"},
        {"int g() { return fo\\\nrk(); }", "starts a process (fork)"},
        {"%:define X 1\nint y = syscall(1);", "raw system calls"},
        {"#define CALL fork\nint z = CALL();", "starts a process (fork)"},
        {"#pragma GCC optimize(\"O0\")\n", "pragma that changes code generation"},
        {"_Pragma(\"GCC optimize(\\\"O0\\\")\") void f();", "(_Pragma)"},
        {"#line 1 \"kernel_operator.h\"\n", "#line"},
        {"float* p = reinterpret_cast<float*>(0x7f0000001000);", "casts an integer to a pointer"},
        {"float* p = reinterpret_cast<float*>(static_cast<uintptr_t>(a));", "casts an integer to a pointer"},
        {"void* q = __builtin_frame_address(0);", "call stack"},
        {"void k(float* d, const float* s) { memcpy(d, s, 64); }", "copies or fills memory outside the Ascend C API (memcpy)"},
        {"extern \"C\" void __asan_store4_noabort(void*);", "instrumentation"},
    };
    for (const auto& [code, reason] : cases) {
        const auto hit = screen(code);
        ASSERT_TRUE(hit) << code;
        EXPECT_NE(hit->reason.find(reason), std::string::npos) << code << " -> " << hit->reason;
    }
    EXPECT_EQ(screen("int g() { return fo\\\nrk(); }")->line, 1);
    EXPECT_EQ(screen("int a;\n#define CALL fork\nint z = CALL();")->line, 2);
}

TEST(StaticScreen, LegitimateSpellingsPass) {
    const char* fine[] = {
        "__attribute__((aligned(32))) float table[8];",
        "[[maybe_unused]] int x = 0; [[likely]];",
        "int opened = 0, writer = 1, memcpy_count = 2;",
        "uint64_t addr = reinterpret_cast<uint64_t>(ptr);",
        "auto* g = reinterpret_cast<__gm__ float*>(x);",
        "#pragma once\n#pragma unroll\n#pragma bisheng auto_sync parallel\n",
        "int a[4]; int b = a[a[0]];",
    };
    for (const char* code : fine) EXPECT_FALSE(screen(code)) << code << " -> " << screen(code)->reason;
    // Host code may copy memory: it runs before the kernel, not as its measured work.
    EXPECT_FALSE(screen_text("void h(void* d, const void* s) { memcpy(d, s, 8); }", "/op/op_host/h.cpp", "/op"));
}

// The second pass reads `g++ -E` output: line markers give the file and line of the
// candidate's own code, and a name pasted together by one of its macros is there in full.
TEST(StaticScreen, NamesPastedByTheCandidatesMacrosAreSeenAfterExpansion) {
    auto dir = make_temp_dir(std::filesystem::temp_directory_path(), "ascendopt-screen");
    ASSERT_TRUE(dir);
    std::filesystem::create_directories(*dir / "op_kernel");
    const std::string source = "#define CAT(a, b) a##b\nint k() {\n  return CAT(ascend, opt_twin)::leak();\n}\n";
    ASSERT_TRUE(write_atomic(*dir / "op_kernel" / "k.cpp", source));
    EXPECT_FALSE(screen_text(source, *dir / "op_kernel" / "k.cpp", *dir)) << "the first pass cannot see a pasted name";
    const std::string expanded = "# 1 \"" + (*dir / "op_kernel" / "k.cpp").string() + "\"\n\nint k() {\n  return ascendopt_twin::leak();\n}\n";
    const auto hit = screen_preprocessed(expanded, *dir);
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->line, 3);
    EXPECT_NE(hit->reason.find("after macro expansion"), std::string::npos) << hit->reason;
    EXPECT_EQ(hit->text, "return CAT(ascend, opt_twin)::leak();");
    EXPECT_TRUE(screen_preprocessed("# 1 \"" + (*dir / "op_kernel" / "k.cpp").string() + "\"\n#pragma GCC optimize (\"O0\")\n", *dir));
    std::filesystem::remove_all(*dir);
}

TEST(StaticScreen, OnlyTheTunersOwnCallIntoTheTwinPasses) {
    const char* tuned = "#include \"ascendopt_twin/host/tunable.h\"\n"
                        "const uint32_t TILE = ::ascendopt_twin::host::tunable_value(\"TILE\", 16384);\n";
    EXPECT_FALSE(screen_text(tuned, "/op/op_host/t.cpp", "/op"));
    EXPECT_TRUE(screen_text("auto p = &::ascendopt_twin::host::tunable_value;\n", "/op/op_host/t.cpp", "/op"));
    EXPECT_TRUE(screen_text("int x = ::ascendopt_twin::host::other(1);\n", "/op/op_host/t.cpp", "/op"));
    EXPECT_TRUE(screen_text("namespace ascendopt_twin { int y; }\n", "/op/op_host/t.cpp", "/op"));
}

// Includes in CANN's CPU-debug regions are never built (nothing defines __CCE_KT_TEST__, and a
// candidate may not); any other condition keeps its includes screened.
TEST(StaticScreen, CpuDebugRegionsAreNeverBuilt) {
    EXPECT_FALSE(screen("#if defined(__CCE_KT_TEST__)\n#include <unistd.h>\n#endif\nint x;\n"));
    EXPECT_FALSE(screen("#ifdef __CCE_KT_TEST__\n#if 1\n#include <fstream>\n#endif\n#endif\n"));
    EXPECT_FALSE(screen("#ifndef __CCE_KT_TEST__\nint x;\n#else\n#include <unistd.h>\n#endif\n"));
    // The live branch of the same group, other conditions, and defining the macro are screened.
    EXPECT_TRUE(screen("#ifdef __CCE_KT_TEST__\nint x;\n#else\n#include <unistd.h>\n#endif\n"));
    EXPECT_TRUE(screen("#if defined(__CCE_KT_TEST__) || 1\n#include <unistd.h>\n#endif\n"));
    EXPECT_TRUE(screen("#ifdef __CCE_KT_TEST__\n#endif\n#include <unistd.h>\n"));
    const auto hit = screen("#define __CCE_KT_TEST__ 1\n#ifdef __CCE_KT_TEST__\n#include <unistd.h>\n#endif\n");
    ASSERT_TRUE(hit);
    EXPECT_NE(hit->reason.find("CPU-debug macro"), std::string::npos) << hit->reason;
}

// Includes reach only what the operator owns (issue 22): a path that is absolute or climbs out
// of the operator's folder is refused with its line, in whichever form it is written; an own
// header beside the includer or in a sibling folder of the operator passes.
TEST(StaticScreen, IncludesThatLeaveTheOperatorsFolderAreRefused) {
    const std::pair<const char*, const char*> cases[] = {
        {"int a;\n#include \"/etc/passwd\"\n", "absolute path (/etc/passwd)"},
        {"int a;\n#include </etc/passwd>\n", "absolute path (/etc/passwd)"},
        {"int a;\n#include \"../../../etc/passwd\"\n", "../../../etc/passwd"},
        {"int a;\n#define P \"/etc/passwd\"\n#include P\n", "include by macro"},
        {"int a;\n#if __has_include(\"/etc/passwd\")\n#endif\n", "absolute path (/etc/passwd)"},
        {"int a;\n#if __has_include(</etc/passwd>)\n#endif\n", "absolute path (/etc/passwd)"},
        {"int a;\n#if defined(X) || __has_include(\"../../../etc/passwd\")\n#endif\n", "../../../etc/passwd"},
        {"int a;\n#define P \"/etc/passwd\"\n#if __has_include(P)\n#endif\n", "by macro"},
        {"int a;\n#define PROBE __has_include(\"/etc/shadow\")\n", "absolute path (/etc/shadow)"},
    };
    for (const auto& [code, reason] : cases) {
        const auto hit = screen(code);
        ASSERT_TRUE(hit) << code;
        EXPECT_NE(hit->reason.find(reason), std::string::npos) << code << " -> " << hit->reason;
        EXPECT_GE(hit->line, 2) << code;
    }
    EXPECT_FALSE(screen("#ifdef __has_include\n#if __has_include(<vector>) && defined(__has_include)\n#endif\n#endif\n"));
    auto dir = make_temp_dir(std::filesystem::temp_directory_path(), "ascendopt-screen");
    ASSERT_TRUE(dir);
    std::filesystem::create_directories(*dir / "op_host");
    std::filesystem::create_directories(*dir / "op_kernel" / "impl");
    ASSERT_TRUE(write_atomic(*dir / "op_host" / "t_tiling.h", "#pragma once\n"));
    ASSERT_TRUE(write_atomic(*dir / "op_kernel" / "impl" / "part.h", "#pragma once\n"));
    const auto kernel = *dir / "op_kernel" / "impl" / "k.cpp";
    EXPECT_FALSE(screen_text("#include \"../../op_host/t_tiling.h\"\n#include \"part.h\"\n#if __has_include(\"part.h\")\n#endif\n", kernel, *dir));
    std::filesystem::remove_all(*dir);
}

// The first pass screens the files the build reads. A header included by a digraph or with a
// comment inside the directive is read by the compiler as any other, so it is screened too, and
// an absolute include in it is refused.
TEST(StaticScreen, HeadersIncludedInAnySpellingAreScreened) {
    for (const char* spelling : {"%:include \"x.h\"\n", "#/* */include \"x.h\"\n", "# /*\n*/ include \"x.h\"\n", "#inc\\\nlude \"x.h\"\n"}) {
        auto dir = make_temp_dir(std::filesystem::temp_directory_path(), "ascendopt-screen");
        ASSERT_TRUE(dir);
        std::filesystem::create_directories(*dir / "op_host");
        std::filesystem::create_directories(*dir / "op_kernel");
        ASSERT_TRUE(write_atomic(*dir / "op_host" / "t.cpp", "int host;\n"));
        ASSERT_TRUE(write_atomic(*dir / "op_kernel" / "k.cpp", std::string(spelling) + "int kernel;\n"));
        ASSERT_TRUE(write_atomic(*dir / "op_kernel" / "x.h", "#pragma once\n#include \"/etc/passwd\"\n"));
        auto op = load_operator_for_smoke(*dir);
        ASSERT_TRUE(op) << op.error().message;
        const auto hit = screen_operator(*op);
        ASSERT_TRUE(hit) << spelling;
        EXPECT_EQ(hit->describe(op->root), "op_kernel/x.h:2: includes a file by its absolute path (/etc/passwd): `#include \"/etc/passwd\"`")
            << spelling;
        std::filesystem::remove_all(*dir);
    }
}

// The second pass reads what `g++ -E` read: a line marker of a file outside the operator's
// folder and the stub headers (however its name was spelled or computed) is refused, at the line
// that included it.
TEST(StaticScreen, TheExpandedPassRefusesFilesOutsideTheOperator) {
    const std::string k = "/op/op_kernel/k.cpp";
    const std::string leaked = "# 1 \"" + k + "\"\nint a;\n\n# 1 \"/etc/passwd\" 1\nroot:x:0:0:root:/root:/bin/bash\n# 4 \"" + k + "\" 2\nint b;\n";
    const auto hit = screen_preprocessed(leaked, "/op", {"/stubs"});
    ASSERT_TRUE(hit);
    EXPECT_NE(hit->reason.find("outside the operator's folder (/etc/passwd)"), std::string::npos) << hit->reason;
    EXPECT_EQ(hit->file, std::filesystem::path(k));
    EXPECT_EQ(hit->line, 3);
    const std::string stubbed = "# 1 \"" + k + "\"\n# 1 \"/stubs/kernel_operator.h\" 1\n# 2 \"" + k + "\" 2\n# 1 \"<built-in>\"\n# 1 \"<command-line>\"\n# 1 \"" + k + "\"\nint b;\n";
    EXPECT_FALSE(screen_preprocessed(stubbed, "/op", {"/stubs"}));
}
