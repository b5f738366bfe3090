// docs/ARCHITECTURE.md is the map a reader finds every feature from: each folder of src/ has
// its paragraph, and each source file is named on the page (itself or its header).
#include <gtest/gtest.h>

#include <filesystem>

#include "util/files.h"

namespace ascendopt {
namespace {

namespace fs = std::filesystem;

TEST(Architecture, EverySourceFileAndFolderIsOnThePage) {
    const fs::path root = ASCENDOPT_TEST_SOURCE_DIR;
    auto page = read_text(root / "docs" / "ARCHITECTURE.md");
    ASSERT_TRUE(page) << page.error().message;
    for (const auto& layer : fs::directory_iterator(root / "src")) {
        if (!layer.is_directory()) continue;
        const std::string folder = "**`src/" + layer.path().filename().string() + "/`**";
        EXPECT_NE(page->find(folder), std::string::npos) << "no paragraph for " << folder;
    }
    for (const auto& e : fs::recursive_directory_iterator(root / "src")) {
        if (!e.is_regular_file() || e.path().extension() != ".cpp") continue;
        const std::string stem = e.path().stem().string();
        const bool named = page->find(stem + ".cpp") != std::string::npos || page->find(stem + ".h") != std::string::npos;
        EXPECT_TRUE(named) << fs::relative(e.path(), root).string() << " is not named in docs/ARCHITECTURE.md";
    }
}

}  // namespace
}  // namespace ascendopt
