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
Status write_atomic(const fs::path& path, std::string_view bytes);

// Files under `dir` whose names end with `suffix`, sorted, recursively when `recursive`.
std::vector<fs::path> list_files(const fs::path& dir, std::string_view suffix, bool recursive = false);

// A fresh private directory under `parent` (created if needed), named prefix-XXXXXX.
Result<fs::path> make_temp_dir(const fs::path& parent, std::string_view prefix);

// Removes a folder and everything in it when it goes out of scope.
class RemoveOnExit {
public:
    explicit RemoveOnExit(fs::path dir) : m_dir(std::move(dir)) {}
    ~RemoveOnExit() {
        std::error_code ec;
        fs::remove_all(m_dir, ec);
    }
    RemoveOnExit(const RemoveOnExit&) = delete;
    RemoveOnExit& operator=(const RemoveOnExit&) = delete;

private:
    fs::path m_dir;
};

// $XDG_CACHE_HOME/ascendopt (or ~/.cache/ascendopt), overridable with ASCENDOPT_CACHE_DIR.
fs::path cache_root();

}  // namespace ascendopt
