// Helpers for end-to-end tests that drive the real ascendopt binary.
#pragma once

#include <gtest/gtest.h>

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

// Runs `ascendopt args...` with the test build cache; returns the process result. Where
// bubblewrap cannot run (a container without user namespaces), commands that build and run
// candidates get --unsandboxed so the rest of the suite still runs; the tests of the sandbox
// itself skip there.
inline ProcessResult run_cli(std::vector<std::string> args, std::map<std::string, std::string> env = {},
                             size_t keep_bytes = 256 * 1024) {
    static const bool sandbox_works = working_bubblewrap().ok();
    if (!sandbox_works && !args.empty() && (args[0] == "eval" || args[0] == "profile" || args[0] == "tune")) args.push_back("--unsandboxed");
    args.insert(args.begin(), ASCENDOPT_TEST_BINARY);
    env.emplace("ASCENDOPT_CACHE_DIR", ASCENDOPT_TEST_CACHE_DIR);
    return run_process(args, {.cwd = source_dir(), .env = env, .timeout_seconds = 600, .keep_bytes = keep_bytes});
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

}  // namespace ascendopt::e2e
