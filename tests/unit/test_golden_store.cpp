// How the golden cache keeps expected values (eval/golden_store.h): each output in the
// narrowest encoding that gives every value back unchanged, read the same whatever was chosen.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>

#include "eval/golden_store.h"
#include "support/scratch_test.h"

namespace ascendopt {
namespace {

namespace fs = std::filesystem;
using GoldenStoreTest = testing::ScratchTest;

// Writes `values` as a golden does (float64, one per scalar), compacts them and returns the
// suffix of the file that was kept.
std::string compact(const fs::path& dir, const std::vector<double>& values) {
    std::ofstream(dir / "y.f64", std::ios::binary).write(reinterpret_cast<const char*>(values.data()), std::streamsize(values.size() * 8));
    EXPECT_TRUE(compact_golden_output(dir, "y"));
    std::string kept;
    for (const auto& e : fs::directory_iterator(dir)) kept += e.path().extension().string();
    return kept;
}

// Bit for bit, except that every NaN only has to stay a NaN of the same sign.
void expect_same(const std::vector<double>& want, const std::vector<double>& got) {
    ASSERT_EQ(want.size(), got.size());
    for (size_t i = 0; i < want.size(); ++i) {
        if (std::isnan(want[i])) {
            EXPECT_TRUE(std::isnan(got[i])) << i;
            EXPECT_EQ(std::signbit(want[i]), std::signbit(got[i])) << i;
            continue;
        }
        EXPECT_EQ(0, std::memcmp(&want[i], &got[i], sizeof(double))) << i << ": " << want[i] << " came back as " << got[i];
    }
}

struct Expectation {
    std::vector<double> values;
    std::string suffix;
};

TEST_F(GoldenStoreTest, EachOutputIsKeptInTheNarrowestExactEncoding) {
    const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
    const std::vector<Expectation> cases = {
        {{0, 1, 1, 0, 255}, ".u8"},                          // a bool or uint8 output
        {{0, 1, -0.0}, ".f32"},                              // -0.0 is no integer: the sign would go
        {{-1, 0, 256}, ".i32"},                              // integers beyond a byte
        {{2147483648.0}, ".f32"},                            // beyond int32, still a float
        {{0.5, double(1.0f / 3.0f), -inf, inf, nan, -nan}, ".f32"}, // float32 results, infinities and NaNs
        {{1.0 / 3.0}, ".f64"},                               // a float64 result
        {{1e39}, ".f64"},                                    // beyond float32's range
        {{3.0, 1e-46}, ".f64"},                              // below float32's smallest subnormal
        {{}, ".u8"},                                         // an empty output
    };
    for (size_t i = 0; i < cases.size(); ++i) {
        const fs::path dir = m_dir / std::to_string(i);
        fs::create_directories(dir);
        EXPECT_EQ(cases[i].suffix, compact(dir, cases[i].values)) << "case " << i;
        const auto back = read_golden_output(dir, "y");
        ASSERT_TRUE(back) << back.error().message;
        expect_same(cases[i].values, *back);
    }
}

TEST_F(GoldenStoreTest, AWholeNumberOfValuesIsRequired) {
    std::ofstream(m_dir / "y.f32", std::ios::binary) << "abcde";
    const auto back = read_golden_output(m_dir, "y");
    ASSERT_FALSE(back);
    EXPECT_NE(back.error().message.find("5 bytes, not a whole number of values"), std::string::npos) << back.error().message;
}

TEST_F(GoldenStoreTest, AMissingOutputIsNamed) {
    const auto back = read_golden_output(m_dir, "z");
    ASSERT_FALSE(back);
    EXPECT_NE(back.error().message.find("no output 'z'"), std::string::npos) << back.error().message;
}

}  // namespace
}  // namespace ascendopt
