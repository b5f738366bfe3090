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
        {"__attribute__((constructor)) void early() {}", "static constructor"},
        {"#include <fstream>\n", "outside the allow-list (fstream)"},
        {"#include \"../../secrets.h\"\n", "outside the allow-list"},
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
