#include "eval/toolchain.h"

#include <cstdlib>

#include "eval/build_config.h"
#include "util/files.h"
#include "util/hash.h"
#include "util/subprocess.h"

namespace ascendopt {
namespace {

std::vector<fs::path> split_libs(const std::string& s) {
    std::vector<fs::path> out;
    size_t start = 0;
    while (start < s.size()) {
        const size_t end = s.find(';', start);
        out.emplace_back(s.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return out;
}

}  // namespace

std::vector<std::string> Toolchain::common_flags() const {
    // -g1: the line tables failure reports map addresses with (eval/symbolize.h); -gz keeps them
    // compressed, since every candidate is an entry of its own in the build cache.
    return {"-std=gnu++17", "-O2", "-g1", "-gz", "-fno-omit-frame-pointer", "-DASCENDC_CPU_DEBUG", "-I" + twin_include.string()};
}

std::vector<std::string> Toolchain::host_flags() const { return common_flags(); }

std::vector<std::string> Toolchain::kernel_flags() const {
    auto f = common_flags();
    f.push_back("-DASCENDOPT_TWIN_KERNEL");
    // Every basic block of the kernel's own code calls __sanitizer_cov_trace_pc, which the
    // timing model charges as scalar work (the twin headers opt out, see attrs.h).
    f.push_back("-fsanitize-coverage=trace-pc");
    // Loops stay loops: the twin's own loops over UB must not become memcpy calls, which the
    // kernel build renames to charged ones (twin/rt/candidate_memory.h).
    f.push_back("-fno-tree-loop-distribute-patterns");
    // Every memory access of the kernel's own code through a pointer calls the runtime, which
    // checks and charges the scalar GM accesses among them (rt/scalar_access.cpp); no shadow
    // memory, no redzones: only the calls.
    f.insert(f.end(), {"-fsanitize=kernel-address", "--param", "asan-instrumentation-with-call-threshold=0", "--param",
                       "asan-stack=0", "--param", "asan-globals=0"});
    return f;
}

std::vector<std::string> Toolchain::link_flags() const {
    std::vector<std::string> f;
    for (const auto& l : link_libs) f.push_back(l.string());
    f.insert(f.end(), {"-lpthread", "-ldl"});
    return f;
}

Result<Toolchain> detect_toolchain() {
    Toolchain tc;
    const char* env_cxx = std::getenv("ASCENDOPT_CXX");
    if (!env_cxx || !*env_cxx) env_cxx = std::getenv("CXX");
    tc.cxx = env_cxx && *env_cxx ? env_cxx : "g++";
    if (!find_program(tc.cxx))
        return make_error("C++ compiler '" + tc.cxx + "' not found on PATH", "install g++ (scripts/install-deps.sh) or set ASCENDOPT_CXX");
    tc.twin_include = ASCENDOPT_TWIN_INCLUDE_DIR;
    tc.share_dir = ASCENDOPT_SHARE_DIR;
    tc.src_dir = ASCENDOPT_SRC_DIR;
    tc.link_libs = split_libs(ASCENDOPT_TWIN_LIBS);
    std::error_code ec;
    if (!fs::is_regular_file(tc.twin_include / "kernel_operator.h", ec))
        return make_error("twin headers not found in " + tc.twin_include.string(), "ascendopt runs from its build tree; rebuild it with make");
    // The fingerprint covers the compiler's identity and every twin header and library by
    // path, size and modification time: cheap enough for every invocation, and any rebuild
    // of the twin changes it (at worst causing a spurious rebuild, never a stale one).
    Sha256 h;
    const ProcessResult version = run_process({tc.cxx, "--version"}, {.timeout_seconds = 30});
    if (!version.succeeded()) return make_error("'" + tc.cxx + " --version' failed: " + version.describe_end(), "", version.output);
    h.update(version.output);
    auto stamp = [&](const fs::path& f) -> bool {
        std::error_code e1, e2;
        const auto size = fs::file_size(f, e1);
        const auto time = fs::last_write_time(f, e2);
        if (e1 || e2) return false;
        h.update(f.string()).update(std::to_string(size)).update(std::to_string(time.time_since_epoch().count()));
        return true;
    };
    for (const auto& f : list_files(tc.twin_include, "", true)) stamp(f);
    for (const auto& lib : tc.link_libs)
        if (!stamp(lib)) return make_error("twin library " + lib.string() + " is missing", "rebuild ascendopt with make");
    tc.fingerprint = h.hex();
    return tc;
}

}  // namespace ascendopt
