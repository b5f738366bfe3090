#include "util/sandbox.h"

#include <algorithm>
#include <mutex>
#include <string_view>

#include "util/subprocess.h"

namespace ascendopt {
namespace {

// System folders every sandbox sees read-only. Debian's merged /usr makes /bin, /lib, /lib64
// and /sbin links into /usr; they are recreated as links so paths like /lib64/ld-linux work.
const char* const k_system_dirs[] = {"/usr", "/bin", "/lib", "/lib64", "/sbin"};
// Of /etc, only what the dynamic loader and the compiler driver read: the rest (/etc/shadow,
// credentials of package managers) stays hidden.
const char* const k_etc_entries[] = {"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives"};

void add_system_view(std::vector<std::string>& out) {
    for (const char* dir : k_system_dirs) {
        std::error_code ec;
        const std::filesystem::path p(dir);
        if (std::filesystem::is_symlink(p, ec)) out.insert(out.end(), {"--symlink", std::filesystem::read_symlink(p, ec).string(), dir});
        else if (std::filesystem::exists(p, ec)) out.insert(out.end(), {"--ro-bind", dir, dir});
    }
    for (const char* entry : k_etc_entries)
        if (std::error_code ec; std::filesystem::exists(entry, ec)) out.insert(out.end(), {"--ro-bind", entry, entry});
}

}  // namespace

std::vector<std::string> sandboxed_argv(const std::filesystem::path& bwrap, const std::vector<std::string>& argv,
                                        const SandboxSpec& spec) {
    // /tmp is a RAM-backed tmpfs, which no memory limit of the process counts: it gets a size.
    std::vector<std::string> out = {bwrap.string(), "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
                                    "--clearenv", "--proc", "/proc", "--dev", "/dev", "--size", std::to_string(k_sandbox_tmp_bytes),
                                    "--tmpfs", "/tmp"};
    add_system_view(out);
    // A path that does not exist (yet) has nothing to show; bwrap would refuse it. Inside, a
    // relative destination would not be where the program looks: every path is made absolute.
    // A later mount covers an earlier one at or under its path, so outer folders go first: the
    // read-only inputs inside a writable job folder stay read-only, and a writable build folder
    // inside the read-only cache stays writable.
    std::vector<std::pair<std::filesystem::path, const char*>> binds;
    std::error_code ec;
    for (const auto& p : spec.writable)
        if (std::filesystem::exists(p, ec)) binds.emplace_back(std::filesystem::absolute(p).lexically_normal(), "--bind");
    for (const auto& p : spec.read_only)
        if (std::filesystem::exists(p, ec)) binds.emplace_back(std::filesystem::absolute(p).lexically_normal(), "--ro-bind");
    auto depth = [](const std::filesystem::path& p) { return std::distance(p.begin(), p.end()); };
    // At equal depth (the same path named twice) the writable mount goes last and wins.
    auto writable = [](const char* how) { return std::string_view(how) == "--bind"; };
    std::stable_sort(binds.begin(), binds.end(), [&](const auto& a, const auto& b) {
        return std::pair(depth(a.first), writable(a.second)) < std::pair(depth(b.first), writable(b.second));
    });
    for (const auto& [path, how] : binds) out.insert(out.end(), {how, path.string(), path.string()});
    out.insert(out.end(), {"--setenv", "PATH", "/usr/bin:/bin", "--setenv", "HOME", "/nonexistent", "--setenv", "LC_ALL", "C"});
    for (const auto& [k, v] : spec.env) out.insert(out.end(), {"--setenv", k, v});
    if (!spec.cwd.empty()) out.insert(out.end(), {"--chdir", std::filesystem::absolute(spec.cwd).string()});
    if (spec.seccomp_from_fd3) out.insert(out.end(), {"--seccomp", "3"});
    out.push_back("--");
    out.insert(out.end(), argv.begin(), argv.end());
    return out;
}

void undo_sandbox_exit_code(ProcessResult& r) {
    if (r.signal == 0 && r.exit_code > 128 && r.exit_code < 128 + 65) {
        r.signal = r.exit_code - 128;
        r.exit_code = -1;
    }
}

Result<std::filesystem::path> working_bubblewrap() {
    static std::once_flag once;
    static Result<std::filesystem::path> verdict = make_error("unset");
    std::call_once(once, [] {
        const auto bwrap = find_program("bwrap");
        if (!bwrap) {
            Error e = make_error("bubblewrap (bwrap) is not installed, so candidates cannot be sandboxed",
                                 "install it (apt-get install bubblewrap), or pass --unsandboxed to run candidates without isolation");
            e.missing_tool = true;
            verdict = e;
            return;
        }
        const ProcessResult probe = run_process(sandboxed_argv(*bwrap, {"/usr/bin/true"}, {}), {.timeout_seconds = 30});
        if (!probe.succeeded()) {
            Error e = make_error("bubblewrap cannot create its sandbox here (" + probe.describe_end() + ")",
                                 "user and PID namespaces may be disabled (sysctl kernel.unprivileged_userns_clone, or a "
                                 "container without them); fix that, or pass --unsandboxed to run candidates without isolation",
                                 probe.output);
            e.missing_tool = true;
            verdict = e;
            return;
        }
        verdict = *bwrap;
    });
    return verdict;
}

}  // namespace ascendopt
