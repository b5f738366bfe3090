// Helpers for end-to-end tests that drive the real ascendopt binary.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <thread>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include "util/files.h"
#include "util/sandbox.h"
#include "util/subprocess.h"

namespace ascendopt::e2e {

namespace fs = std::filesystem;

inline fs::path source_dir() { return ASCENDOPT_TEST_SOURCE_DIR; }

// Runs `ascendopt args...` with the test build cache; returns the process result (up to 16 MiB
// of output: --json carries every block's per-pipe timing, 48 blocks and seven pipes a case). Where
// bubblewrap cannot run (a container without user namespaces), commands that build and run
// candidates get --unsandboxed so the rest of the suite still runs; the tests of the sandbox
// itself skip there.
inline ProcessResult run_cli(std::vector<std::string> args, std::map<std::string, std::string> env = {},
                             size_t keep_bytes = 16u << 20) {
    static const bool sandbox_works = working_bubblewrap().ok();
    if (!sandbox_works && !args.empty() && (args[0] == "eval" || args[0] == "profile" || args[0] == "tune" || args[0] == "calibrate")) args.push_back("--unsandboxed");
    args.insert(args.begin(), ASCENDOPT_TEST_BINARY);
    env.emplace("ASCENDOPT_CACHE_DIR", ASCENDOPT_TEST_CACHE_DIR);
    const ProcessOptions options{.cwd = source_dir(), .env = env, .timeout_seconds = 600, .keep_bytes = keep_bytes};
    auto r = run_process(args, options);
    // In the sanitized build LeakSanitizer checks at exit, and its tracer thread now and then
    // crashes on a loaded machine (google/sanitizers#1353): that failure is the checker's, it
    // says nothing of ascendopt, and the exit code it leaves is its own. Run the command once more.
    if (r.output.find("LeakSanitizer has encountered a fatal error") != std::string::npos) r = run_process(args, options);
    return r;
}

inline nlohmann::json json_of(const ProcessResult& r) {
    const auto start = r.output.find('{');
    if (start == std::string::npos) return {};
    // stdout carries the JSON document; stderr is quiet with -q except for errors.
    return nlohmann::json::parse(r.output.substr(start), nullptr, false);
}

// The single integer a query over a SQLite file returns (-1 when it cannot be read).
inline int64_t count_rows(const fs::path& db, const std::string& sql) {
    sqlite3* h = nullptr;
    int64_t n = -1;
    if (sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(h, sql.c_str(), -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) n = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    sqlite3_close(h);
    return n;
}

// A private folder, removed with everything in it.
struct TempDir {
    fs::path path = *make_temp_dir(fs::temp_directory_path(), "ascendopt-e2e-tmp");
    ~TempDir() { fs::remove_all(path); }
};

// A private copy of a bundled operator, for tests that break it on purpose.
class OperatorCopy {
public:
    // A copy of `folder`/`name` of the source tree: ops/ holds the bundled operators,
    // tests/ops/ small ones that reproduce constructs of published operators.
    explicit OperatorCopy(const std::string& name, const std::string& folder = "ops") {
        m_dir = *make_temp_dir(fs::temp_directory_path(), "ascendopt-e2e") / name;
        fs::copy(source_dir() / folder / name, m_dir, fs::copy_options::recursive);
    }
    ~OperatorCopy() { fs::remove_all(m_dir.parent_path()); }
    const fs::path& dir() const { return m_dir; }
    // Replaces the first `from` in `rel` with `to`; fails the test if `from` is absent.
    void edit(const std::string& rel, const std::string& from, const std::string& to) {
        auto text = *read_text(m_dir / rel);
        const auto at = text.find(from);
        ASSERT_NE(at, std::string::npos) << "'" << from << "' not in " << rel;
        text.replace(at, from.size(), to);
        std::ofstream(m_dir / rel) << text;
    }
    void write(const std::string& rel, const std::string& text) { std::ofstream(m_dir / rel) << text; }

private:
    fs::path m_dir;
};

// ascendopt started in the background in a process group of its own (so that the test's
// terminal signals do not reach it), its output in `log`: for the tests that kill it.
struct Background {
    pid_t pid = -1;
    Background(std::vector<std::string> args, const std::map<std::string, std::string>& env, const fs::path& log) {
        args.insert(args.begin(), ASCENDOPT_TEST_BINARY);
        pid = ::fork();
        if (pid == 0) {
            ::setpgid(0, 0);
            ::setenv("ASCENDOPT_CACHE_DIR", ASCENDOPT_TEST_CACHE_DIR, 1);
            for (const auto& [k, v] : env) ::setenv(k.c_str(), v.c_str(), 1);
            if (::chdir(source_dir().c_str()) != 0) ::_exit(127);
            std::FILE* out = std::freopen(log.c_str(), "w", stdout);
            if (!out || ::dup2(::fileno(stdout), 2) < 0) ::_exit(127);
            std::vector<char*> argv;
            for (auto& a : args) argv.push_back(a.data());
            argv.push_back(nullptr);
            ::execv(argv[0], argv.data());
            ::_exit(127);
        }
        ::setpgid(pid, pid);
    }
    int ended_status = 0;  // the wait status of a run that ended on its own (see running)
    // Whether it is still running (an ended run is reaped here).
    bool running() {
        if (pid > 0 && ::waitpid(pid, &ended_status, WNOHANG) == pid) pid = -1;
        return pid > 0;
    }
    // Sends `sig` to it alone, or with `group` to its whole process group, and waits for the end.
    int stop(int sig, bool group = false) {
        if (pid <= 0) return 0;
        ::kill(group ? -pid : pid, sig);
        int status = 0;
        ::waitpid(pid, &status, 0);
        pid = -1;
        return status;
    }
    ~Background() {
        if (pid > 0) stop(SIGKILL, true);
    }
};

// Polls `done` every 20 ms for up to `seconds`.
inline bool eventually(const std::function<bool()>& done, double seconds) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < end) {
        if (done()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return done();
}

// Runs `ascendopt args` and SIGKILLs its whole process group as soon as `ready` holds (polled),
// never before and never after the run ends: true when it was killed partway. A test that
// asserts it knows the rerun resumed a run that was really cut.
inline bool kill9_partway(const std::vector<std::string>& args, const std::map<std::string, std::string>& env, const fs::path& log,
                          const std::function<bool()>& ready) {
    Background run(args, env, log);
    if (!eventually([&] { return ready() || !run.running(); }, 600) || !run.running()) return false;
    const int status = run.stop(SIGKILL, true);
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

}  // namespace ascendopt::e2e
