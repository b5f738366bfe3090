// The build cache's limit (util/cache_trim.h): least recently used entries go first, recent ones
// and half-made ones never, and a walk is not repeated within its interval.
#include <gtest/gtest.h>

#include <fstream>

#include "support/scratch_test.h"
#include "util/cache_trim.h"

namespace ascendopt {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;
using CacheTrimTest = testing::ScratchTest;

// An entry of `bytes` bytes last used `age` ago.
void entry(const fs::path& dir, uint64_t bytes, std::chrono::seconds age) {
    fs::create_directories(dir);
    std::ofstream(dir / "op", std::ios::binary) << std::string(bytes, 'x');
    fs::last_write_time(dir, fs::file_time_type::clock::now() - age);
}

TEST_F(CacheTrimTest, OldestEntriesGoFirstDownToTheLowWaterMark) {
    const fs::path builds = m_dir / "builds";
    entry(builds / "a", 1000, 10h);
    entry(builds / "b", 1000, 9h);
    entry(builds / "c", 1000, 8h);
    entry(builds / "d", 1000, 7h);
    entry(builds / "tmp-half-made-1", 5000, 20h);
    touch_cache_entry(builds / "a");  // used now: the newest
    const CacheTrim t = trim_cache(builds, {.max_bytes = 2500, .low_water = 0.8, .keep_recent = 1h});
    EXPECT_EQ(t.entries, 4u);
    EXPECT_EQ(t.bytes, 4000u);
    EXPECT_EQ(t.removed_entries, 2u);
    EXPECT_EQ(t.removed_bytes, 2000u);
    EXPECT_FALSE(fs::exists(builds / "b"));
    EXPECT_FALSE(fs::exists(builds / "c"));
    EXPECT_TRUE(fs::exists(builds / "d"));
    EXPECT_TRUE(fs::exists(builds / "a")) << "touched: used most recently";
    EXPECT_TRUE(fs::exists(builds / "tmp-half-made-1")) << "half-made builds are not entries";
}

TEST_F(CacheTrimTest, EntriesUsedRecentlyStayWhateverTheSize) {
    const fs::path builds = m_dir / "builds";
    entry(builds / "a", 1000, 2h);
    entry(builds / "b", 1000, 30min);
    const CacheTrim t = trim_cache(builds, {.max_bytes = 100, .keep_recent = 1h});
    EXPECT_EQ(t.removed_entries, 1u);
    EXPECT_TRUE(fs::exists(builds / "b")) << "another process may be running from it";
}

TEST_F(CacheTrimTest, AWalkIsNotRepeatedWithinItsIntervalAndNoLimitMeansNone) {
    const fs::path builds = m_dir / "builds";
    entry(builds / "a", 1000, 10h);
    EXPECT_EQ(trim_cache(builds, {.max_bytes = 0, .keep_recent = 1h}).entries, 0u);
    EXPECT_TRUE(fs::exists(builds / "a"));
    EXPECT_EQ(trim_cache(builds, {.max_bytes = 5000, .keep_recent = 1h}).entries, 1u);
    entry(builds / "b", 9000, 10h);
    const CacheTrim again = trim_cache(builds, {.max_bytes = 5000, .keep_recent = 1h});
    EXPECT_EQ(again.entries, 0u) << "walked a moment ago";
    EXPECT_TRUE(fs::exists(builds / "b"));
    const CacheTrim due = trim_cache(builds, {.max_bytes = 5000, .keep_recent = 1h, .min_interval = 0s});
    EXPECT_EQ(due.entries, 2u);
    EXPECT_FALSE(fs::exists(builds / "b"));
}

}  // namespace
}  // namespace ascendopt
