// Keeping a cache folder of entries (one subfolder each, such as the build cache's
// builds/<key>) under a size: the least recently used entries go first, and never one used
// within `keep_recent`, which another process may be running from.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>

namespace ascendopt {

struct CacheTrim {
    uint64_t entries = 0, bytes = 0;                  // what the folder held
    uint64_t removed_entries = 0, removed_bytes = 0;  // what was removed
};

struct CacheLimits {
    uint64_t max_bytes = 0;  // 0: no limit
    // After a trim the folder holds at most this share of max_bytes, so that the next build
    // does not start another walk.
    double low_water = 0.8;
    std::chrono::seconds keep_recent{6 * 3600};
    // A walk of the folder is skipped when one was made this recently (the stamp file
    // .last-trim): every command starts a builder, and a large cache takes a while to walk.
    std::chrono::seconds min_interval{600};
};

// Trims `folder` to `limits` (nothing done, all zero, within min_interval of the last walk):
// entries are its subfolders whose names do not start with
// "tmp-" (half-made ones belong to sweep_abandoned_temp_dirs), ordered by their folder's
// modification time (touch_cache_entry on every use). Errors leave an entry where it is.
CacheTrim trim_cache(const std::filesystem::path& folder, const CacheLimits& limits);

// Marks an entry as used now.
void touch_cache_entry(const std::filesystem::path& entry);

// The limit of each of the build and golden caches: $ASCENDOPT_CACHE_MAX_GB (a number of GiB; 0: none), else 20 GiB;
// nothing when the variable holds something else.
std::optional<uint64_t> build_cache_limit_bytes();

}  // namespace ascendopt
