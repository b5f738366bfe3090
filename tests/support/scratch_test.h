// A test fixture with a private scratch folder (m_dir), made before each test and removed after.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>

#include "util/files.h"

namespace ascendopt::testing {

class ScratchTest : public ::testing::Test {
protected:
    void SetUp() override {
        auto dir = make_temp_dir(std::filesystem::temp_directory_path(), "ascendopt-unit");
        ASSERT_TRUE(dir) << dir.error().message;
        m_dir = *dir;
    }
    void TearDown() override { std::filesystem::remove_all(m_dir); }
    std::filesystem::path m_dir;
};

}  // namespace ascendopt::testing
