// OpParamDef::InitValue: the value an output holds before the kernel runs (the harness writes
// output_initial_pattern over the output's buffer; other outputs keep the 0xFF poison).
#include <gtest/gtest.h>

#include <cstring>

#include "ascendopt_twin/host/op_def.h"

namespace {

using ascendopt_twin::host::output_initial_pattern;
using ascendopt_twin::host::scalar_var_bytes;
using ops::ScalarType;
using ops::ScalarVar;

std::vector<uint8_t> pattern_of(const ops::OpParamDef& p, size_t column, bool need_atomic, uint64_t bytes, std::string& error) {
    return output_initial_pattern(p.init_value(), p.name(), column, need_atomic, bytes, error);
}

TEST(InitValue, WithoutItTheOutputKeepsThePoison) {
    ops::OpParamDef y("y");
    std::string error;
    EXPECT_TRUE(pattern_of(y, 0, true, 64, error).empty());
    EXPECT_TRUE(error.empty());
}

TEST(InitValue, ZeroClearsTheOutputWhenTheTilingNeedsAtomic) {
    ops::OpParamDef y("y");
    y.InitValue(0);
    std::string error;
    EXPECT_EQ(pattern_of(y, 3, true, 256, error), std::vector<uint8_t>{0});
    EXPECT_TRUE(error.empty()) << error;
    // The documentation pairs InitValue with SetNeedAtomic(true); without it nothing is written.
    EXPECT_TRUE(pattern_of(y, 3, false, 256, error).empty());
    EXPECT_TRUE(error.empty()) << error;
}

TEST(InitValue, NonzeroClearingValueIsAnError) {
    ops::OpParamDef y("y");
    y.InitValue(uint64_t(7));
    std::string error;
    EXPECT_TRUE(pattern_of(y, 0, true, 64, error).empty());
    EXPECT_NE(error.find("InitValue: output 'y' is given 7"), std::string::npos) << error;
}

TEST(InitValue, TypedValuesEncodeAsTheirType) {
    EXPECT_EQ(scalar_var_bytes(ScalarVar(ScalarType::INT32, -2)), (std::vector<uint8_t>{0xFE, 0xFF, 0xFF, 0xFF}));
    EXPECT_EQ(scalar_var_bytes(ScalarVar(ScalarType::UINT8, 200u)), (std::vector<uint8_t>{200}));
    EXPECT_EQ(scalar_var_bytes(ScalarVar(ScalarType::INT64, int64_t(1) << 40)), (std::vector<uint8_t>{0, 0, 0, 0, 0, 1, 0, 0}));
    EXPECT_EQ(scalar_var_bytes(ScalarVar(ScalarType::FLOAT16, 1)), (std::vector<uint8_t>{0x00, 0x3C}));  // integer given for a float type
    EXPECT_EQ(scalar_var_bytes(ScalarVar(ScalarType::FLOAT16, -2.0f)), (std::vector<uint8_t>{0x00, 0xC0}));
    const auto f = scalar_var_bytes(ScalarVar(ScalarType::FLOAT32, 0.5f));
    float back = 0;
    ASSERT_EQ(f.size(), 4u);
    std::memcpy(&back, f.data(), 4);
    EXPECT_EQ(back, 0.5f);
    EXPECT_EQ(scalar_var_bytes(ScalarVar(ScalarType::INT16, 3.9f)), (std::vector<uint8_t>{3, 0}));  // truncated toward zero
    EXPECT_TRUE(scalar_var_bytes(ScalarVar()).empty());
}

TEST(InitValue, PerCombinationListPicksTheCaseColumn) {
    ops::OpParamDef dx("dx");
    dx.InitValue({{ScalarType::FLOAT32, 1}, {ScalarType::FLOAT16, 2}, {ScalarType::INT8, -1}});
    std::string error;
    EXPECT_EQ(pattern_of(dx, 1, true, 8, error), (std::vector<uint8_t>{0x00, 0x40}));
    EXPECT_EQ(pattern_of(dx, 2, true, 8, error), (std::vector<uint8_t>{0xFF}));
    EXPECT_TRUE(error.empty()) << error;
    EXPECT_TRUE(pattern_of(dx, 3, true, 8, error).empty());
    EXPECT_NE(error.find("lists 3 initial values"), std::string::npos) << error;
}

TEST(InitValue, BufferMustHoldWholeValues) {
    ops::OpParamDef y("y");
    y.InitValue(ScalarVar(ScalarType::FLOAT32, 0.0f));
    std::string error;
    EXPECT_TRUE(pattern_of(y, 0, true, 6, error).empty());
    EXPECT_NE(error.find("6 bytes, not a whole number of 4-byte initial values"), std::string::npos) << error;
}

}  // namespace
