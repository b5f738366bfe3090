// The object gate (eval/symbol_gate.h) on objects compiled here from small sources: each rule
// refuses what it is for and lets honest code through.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>

#include "eval/symbol_gate.h"
#include "support/scratch_test.h"
#include "util/files.h"
#include "util/subprocess.h"

namespace ascendopt {
namespace {

class SymbolGateTest : public testing::ScratchTest {
protected:
    void SetUp() override {
        testing::ScratchTest::SetUp();
        auto tc = detect_toolchain();
        ASSERT_TRUE(tc) << tc.error().message;
        m_tc = *tc;
        auto gate = SymbolGate::load(m_tc);
        ASSERT_TRUE(gate) << gate.error().message;
        m_gate.emplace(std::move(*gate));
    }

    CandidateObject compiled(const std::string& name, const std::string& source, bool kernel) {
        const fs::path src = m_dir / (name + ".cpp");
        const fs::path obj = m_dir / (name + ".o");
        EXPECT_TRUE(write_atomic(src, source));
        const auto r = run_process({m_tc.cxx, "-std=gnu++17", "-O2", "-c", src.string(), "-o", obj.string()}, {.timeout_seconds = 120});
        EXPECT_TRUE(r.succeeded()) << r.output;
        return {obj, name + ".cpp", kernel};
    }

    std::string check(const std::vector<CandidateObject>& objects) { return m_gate->check(objects); }

    Toolchain m_tc;
    std::optional<SymbolGate> m_gate;
};

TEST_F(SymbolGateTest, HonestCodeWithLibmStringsAndVectorsPasses) {
    const auto host = compiled("host", R"(#include <cmath>
#include <string>
#include <vector>
#include <cstdio>
int tile(int n) { std::vector<int> v(n); std::string s = std::to_string(n); std::printf("%s", s.c_str()); return v.size() + int(std::sqrt(n)); })",
                               false);
    const auto kernel = compiled("kernel", "#include <cmath>\nextern \"C\" void k(float* y, int n) { for (int i = 0; i < n; ++i) y[i] = expf(y[i]); }", true);
    EXPECT_EQ(check({kernel, host}), "");
}

TEST_F(SymbolGateTest, DefiningWhatTheRuntimeDefinesIsRefused) {
    const std::pair<const char*, const char*> cases[] = {
        {"extern \"C\" double strtod(const char*, char**) { return 1; }", "strtod"},
        {"#include <cstddef>\nextern \"C\" __attribute__((weak)) void* malloc(std::size_t) { return nullptr; }", "malloc"},
        {"extern \"C\" void __asan_store4_noabort(void*) {}", "instrumentation"},
        {"int main() { return 0; }", "main"},
        {"namespace nlohmann { int formatter(double) { return 0; } }", "reserved namespace nlohmann"},
    };
    for (const auto& [source, says] : cases) {
        const auto why = check({compiled("defines", source, false)});
        EXPECT_NE(why.find(says), std::string::npos) << source << "\n" << why;
    }
}

// A reserved namespace in a parameter type is no definition in that namespace (mat_mul_v3's
// host code defines optiling functions taking std::string).
TEST_F(SymbolGateTest, OwnFunctionsTakingLibraryTypesPass) {
    const auto host = compiled("own", R"(#include <string>
namespace optiling { int ParseDtype(const std::string& s, bool& ok) { ok = !s.empty(); return int(s.size()); } })", false);
    EXPECT_EQ(check({host}), "");
}

TEST_F(SymbolGateTest, ImportsOutsideTheAllowListAreRefused) {
    const std::pair<const char*, const char*> host_cases[] = {
        {"#include <unistd.h>\nlong f(char* b) { return readlink(\"/proc/self/fd/3\", b, 8); }", "readlink"},
        {"#include <sys/mman.h>\nint f(void* p) { return mprotect(p, 4096, PROT_READ | PROT_WRITE); }", "mprotect"},
        {"#include <dlfcn.h>\nvoid* f() { return dlopen(\"libc.so.6\", RTLD_NOW); }", "dlopen"},

        {"#include <fstream>\nvoid f() { std::ofstream o(\"x\"); o << 1; }", "std::basic_ofstream"},
    };
    for (const auto& [source, says] : host_cases) {
        const auto why = check({compiled("imports", source, false)});
        EXPECT_NE(why.find(says), std::string::npos) << source << "\n" << why;
    }
    // What host code may call, kernel code may not: the device has no C library, and a thread
    // of its own would run its work unchecked and uncharged.
    const auto why = check({compiled("kernel_snprintf", "#include <cstdio>\nint f(char* b) { return std::snprintf(b, 8, \"%d\", 1); }", true)});
    EXPECT_NE(why.find("device has no C library"), std::string::npos) << why;
    const auto thread = check({compiled("kernel_thread", "#include <thread>\nvoid f() { std::thread t([] {}); t.join(); }", true)});
    EXPECT_NE(thread.find("std::thread"), std::string::npos) << thread;
    EXPECT_EQ(check({compiled("host_thread", "#include <thread>\nvoid f() { std::thread t([] {}); t.join(); }", false)}), "");
}

TEST_F(SymbolGateTest, KernelAndHostCodeShareNoFunctions) {
    const auto host = compiled("host_helper", "extern \"C\" float helper(const float* p) { return p[0] * 2; }", false);
    const auto kernel = compiled("kernel_calls", "extern \"C\" float helper(const float*);\nextern \"C\" float k(const float* p) { return helper(p); }", true);
    const auto why = check({kernel, host});
    EXPECT_NE(why.find("only host code defines"), std::string::npos) << why;
    // Without the host side the import is just unknown: still refused.
    EXPECT_NE(check({kernel}).find("helper"), std::string::npos);
}

TEST_F(SymbolGateTest, KernelMemoryFunctionsAreRenamedBeforeTheGate) {
    const auto& renames = kernel_symbol_renames();
    for (const char* name : {"memcpy", "memmove", "memset"})
        EXPECT_TRUE(std::any_of(renames.begin(), renames.end(), [&](const auto& r) { return r.first == name; })) << name;
}

}  // namespace
}  // namespace ascendopt
