// File helpers. Writes are atomic (temporary file + rename), so a crash never leaves a
// half-written file where a complete one is expected.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "util/result.h"

namespace ascendopt {

namespace fs = std::filesystem;

Result<std::string> read_text(const fs::path& path);
Result<std::vector<char>> read_bytes(const fs::path& path);
// Text files for people and tools (.json, .md, .html, .txt, .csv, .jsonl, .log, .toml) are
// written with secrets scrubbed (util/secrets.h); other files byte for byte.
Status write_atomic(const fs::path& path, std::string_view bytes);
Status write_bytes_atomic(const fs::path& path, std::string_view bytes);

// Files under `dir` whose names end with `suffix`, sorted, recursively when `recursive`.
std::vector<fs::path> list_files(const fs::path& dir, std::string_view suffix, bool recursive = false);

// A fresh private directory under `parent` (created if needed), named prefix-<pid>-XXXXXX so
// that a later run can tell it was abandoned.
Result<fs::path> make_temp_dir(const fs::path& parent, std::string_view prefix);

// Removes the make_temp_dir folders under `parent` whose names start with `prefix` and whose
// creating process no longer exists (it was killed, or crashed), except those holding a
// k_keep_marker file. Returns how many it removed.
size_t sweep_abandoned_temp_dirs(const fs::path& parent, std::string_view prefix);
inline constexpr const char* k_keep_marker = ".ascendopt-keep";

// Owns a scratch folder: removes it and everything in it when it goes out of scope, unless
// released (a build folder that was published under its final name).
class ScratchDir {
public:
    explicit ScratchDir(fs::path p) : m_path(std::move(p)) {}
    ~ScratchDir() {
        std::error_code ec;
        if (!m_path.empty()) fs::remove_all(m_path, ec);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    const fs::path& path() const { return m_path; }
    void release() { m_path.clear(); }

private:
    fs::path m_path;
};

// $XDG_CACHE_HOME/ascendopt (or ~/.cache/ascendopt), overridable with ASCENDOPT_CACHE_DIR.
fs::path cache_root();

}  // namespace ascendopt
