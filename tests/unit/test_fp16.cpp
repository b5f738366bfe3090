// binary16 and bfloat16 conversions: known values, ties to even, subnormals, specials, and an
// exhaustive round trip of every binary16 pattern.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "ascendopt_twin/fp16.h"

using namespace ascendopt_twin;

TEST(Fp16, KnownValues) {
    EXPECT_EQ(f32_to_f16_bits(1.0f), 0x3C00);
    EXPECT_EQ(f32_to_f16_bits(-2.0f), 0xC000);
    EXPECT_EQ(f32_to_f16_bits(65504.0f), 0x7BFF);
    EXPECT_EQ(f32_to_f16_bits(0.0f), 0x0000);
    EXPECT_EQ(f32_to_f16_bits(-0.0f), 0x8000);
    EXPECT_EQ(f32_to_f16_bits(std::ldexp(1.0f, -24)), 0x0001);  // smallest subnormal
    EXPECT_EQ(f32_to_f16_bits(std::ldexp(1.0f, -14)), 0x0400);  // smallest normal
}

TEST(Fp16, RoundsToNearestEven) {
    EXPECT_EQ(f32_to_f16_bits(1.0f + std::ldexp(1.0f, -11)), 0x3C00);      // tie -> even (down)
    EXPECT_EQ(f32_to_f16_bits(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3C02);  // tie -> even (up)
    EXPECT_EQ(f32_to_f16_bits(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)), 0x3C01);
    EXPECT_EQ(f32_to_f16_bits(65519.0f), 0x7BFF);
    EXPECT_EQ(f32_to_f16_bits(65520.0f), 0x7C00);  // rounds to infinity
    EXPECT_EQ(f32_to_f16_bits(std::ldexp(1.0f, -25)), 0x0000);      // tie with zero -> zero
    EXPECT_EQ(f32_to_f16_bits(std::ldexp(1.5f, -25)), 0x0001);
    EXPECT_EQ(f32_to_f16_bits(std::ldexp(3.0f, -25)), 0x0002);      // 1.5 ulp tie -> even 2
}

TEST(Fp16, Specials) {
    EXPECT_EQ(f32_to_f16_bits(std::numeric_limits<float>::infinity()), 0x7C00);
    EXPECT_TRUE(std::isnan(f16_bits_to_f32(f32_to_f16_bits(std::nanf("")))));
    EXPECT_TRUE(std::isinf(f16_bits_to_f32(0xFC00)) && f16_bits_to_f32(0xFC00) < 0);
}

TEST(Fp16, EveryPatternRoundTrips) {
    for (uint32_t b = 0; b < 0x10000; ++b) {
        const float f = f16_bits_to_f32(uint16_t(b));
        if (std::isnan(f)) continue;
        ASSERT_EQ(f32_to_f16_bits(f), b) << "pattern " << b;
    }
}

TEST(Bf16, RoundsToNearestEven) {
    EXPECT_EQ(f32_to_bf16_bits(1.0f), 0x3F80);
    EXPECT_EQ(f32_to_bf16_bits(bits_float(0x3F808000)), 0x3F80);  // tie -> even
    EXPECT_EQ(f32_to_bf16_bits(bits_float(0x3F818000)), 0x3F82);  // tie -> even (up)
    EXPECT_EQ(f32_to_bf16_bits(bits_float(0x3F808001)), 0x3F81);
    EXPECT_TRUE(std::isnan(bf16_bits_to_f32(f32_to_bf16_bits(std::nanf("")))));
}

TEST(Half, ArithmeticRoundsOnStore) {
    const Half a = 1.0f, b = std::ldexp(1.0f, -11);
    const Half sum = a + b;
    EXPECT_EQ(sum.bits, 0x3C00);
    Half c = 2.0f;
    c *= 3.0f;
    EXPECT_EQ(float(c), 6.0f);
}
