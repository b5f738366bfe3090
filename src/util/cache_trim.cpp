#include "util/cache_trim.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace ascendopt {
namespace {

namespace fs = std::filesystem;

uint64_t folder_bytes(const fs::path& dir) {
    uint64_t total = 0;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
        if (it->is_regular_file(ec)) total += it->file_size(ec);
    return total;
}

struct Entry {
    fs::path path;
    fs::file_time_type used;
    uint64_t bytes = 0;
};

}  // namespace

CacheTrim trim_cache(const fs::path& folder, const CacheLimits& limits) {
    CacheTrim out;
    if (limits.max_bytes == 0) return out;
    std::error_code ec;
    const fs::path stamp = folder / ".last-trim";
    const auto now = fs::file_time_type::clock::now();
    if (const auto last = fs::last_write_time(stamp, ec); !ec && now - last < limits.min_interval) return out;
    if (!fs::is_directory(folder, ec)) return out;
    { std::ofstream touch(stamp, std::ios::app); }
    fs::last_write_time(stamp, now, ec);
    std::vector<Entry> entries;
    for (const auto& e : fs::directory_iterator(folder, ec)) {
        if (!e.is_directory(ec) || e.path().filename().string().starts_with("tmp-")) continue;
        const auto used = fs::last_write_time(e.path(), ec);
        if (ec) continue;
        entries.push_back({e.path(), used, folder_bytes(e.path())});
        out.bytes += entries.back().bytes;
    }
    out.entries = entries.size();
    if (out.bytes <= limits.max_bytes) return out;
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.used < b.used; });
    const auto recent = now - limits.keep_recent;
    const auto target = uint64_t(double(limits.max_bytes) * limits.low_water);
    uint64_t left = out.bytes;
    for (const auto& e : entries) {
        if (left <= target || e.used >= recent) break;
        fs::remove_all(e.path, ec);
        if (ec) continue;
        left -= e.bytes;
        ++out.removed_entries;
        out.removed_bytes += e.bytes;
    }
    return out;
}

void touch_cache_entry(const fs::path& entry) {
    std::error_code ec;
    fs::last_write_time(entry, fs::file_time_type::clock::now(), ec);
}

std::optional<uint64_t> build_cache_limit_bytes() {
    constexpr uint64_t k_gib = uint64_t(1) << 30;
    const char* v = std::getenv("ASCENDOPT_CACHE_MAX_GB");
    if (!v || !*v) return 20 * k_gib;
    char* end = nullptr;
    const double gib = std::strtod(v, &end);
    if (!end || *end != '\0' || !(gib >= 0) || gib > 1e9) return std::nullopt;
    return uint64_t(gib * double(k_gib));
}

}  // namespace ascendopt
