// Vector APIs against scalar references: count form, both mask/repeat forms, counter mode.
#include <cmath>
#include <functional>
#include <vector>

#include "twin_fixture.h"

using namespace AscendC;
using ascendopt_twin::testing::TwinCoreTest;

namespace {

template <class T>
void fill(const LocalTensor<T>& t, uint32_t n, float lo, float hi, uint32_t seed = 1) {
    uint32_t s = seed;
    for (uint32_t i = 0; i < n; ++i) {
        s = s * 1664525u + 1013904223u;
        t.data()[i] = static_cast<T>(lo + (hi - lo) * float(s >> 8) / float(1u << 24));
    }
}

}  // namespace

class VectorTest : public TwinCoreTest {};

TEST_F(VectorTest, BinaryCountFormMatchesScalarReference) {
    const uint32_t n = 300;
    auto a = ub<half>(512, 0), b = ub<half>(512, 1024), d = ub<half>(512, 2048);
    fill(a, n, -4, 4, 1);
    fill(b, n, 0.5f, 4, 2);
    struct Case {
        const char* name;
        std::function<void()> call;
        std::function<float(float, float)> ref;
    };
    const Case cases[] = {
        {"Add", [&] { Add(d, a, b, n); }, [](float x, float y) { return x + y; }},
        {"Sub", [&] { Sub(d, a, b, n); }, [](float x, float y) { return x - y; }},
        {"Mul", [&] { Mul(d, a, b, n); }, [](float x, float y) { return x * y; }},
        {"Div", [&] { Div(d, a, b, n); }, [](float x, float y) { return x / y; }},
        {"Max", [&] { Max(d, a, b, n); }, [](float x, float y) { return std::max(x, y); }},
        {"Min", [&] { Min(d, a, b, n); }, [](float x, float y) { return std::min(x, y); }},
    };
    for (const auto& c : cases) {
        d.data()[n] = half(123.0f);  // beyond count: must stay untouched
        c.call();
        for (uint32_t i = 0; i < n; ++i)
            ASSERT_EQ(d.data()[i].bits, half(c.ref(float(a.data()[i]), float(b.data()[i]))).bits) << c.name << " at " << i;
        EXPECT_EQ(float(d.data()[n]), 123.0f) << c.name;
    }
}

TEST_F(VectorTest, UnaryAndScalarOpsMatchReference) {
    const uint32_t n = 200;
    auto x = ub<float>(256, 0), y = ub<float>(256, 1024);
    fill(x, n, 0.1f, 9, 3);
    Exp(y, x, n);
    for (uint32_t i = 0; i < n; ++i) ASSERT_FLOAT_EQ(y.data()[i], std::exp(x.data()[i]));
    Sqrt(y, x, n);
    for (uint32_t i = 0; i < n; ++i) ASSERT_FLOAT_EQ(y.data()[i], std::sqrt(x.data()[i]));
    Ln(y, x, n);
    for (uint32_t i = 0; i < n; ++i) ASSERT_FLOAT_EQ(y.data()[i], std::log(x.data()[i]));
    Rsqrt(y, x, n);
    for (uint32_t i = 0; i < n; ++i) ASSERT_FLOAT_EQ(y.data()[i], 1.0f / std::sqrt(x.data()[i]));
    Reciprocal(y, x, n);
    for (uint32_t i = 0; i < n; ++i) ASSERT_FLOAT_EQ(y.data()[i], 1.0f / x.data()[i]);
    fill(x, n, -5, 5, 4);
    Abs(y, x, n);
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(y.data()[i], std::fabs(x.data()[i]));
    Relu(y, x, n);
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(y.data()[i], std::max(x.data()[i], 0.0f));
    LeakyRelu(y, x, 0.1f, n);
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(y.data()[i], x.data()[i] >= 0 ? x.data()[i] : x.data()[i] * 0.1f);
    Adds(y, x, 2.5f, n);
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(y.data()[i], x.data()[i] + 2.5f);
    Muls(y, x, -3.0f, n);
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(y.data()[i], x.data()[i] * -3.0f);
    Maxs(y, x, 1.0f, n);
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(y.data()[i], std::max(x.data()[i], 1.0f));
    Mins(y, x, 1.0f, n);
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(y.data()[i], std::min(x.data()[i], 1.0f));
    Duplicate(y, 7.0f, n);
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(y.data()[i], 7.0f);
    Axpy(y, x, 2.0f, n);
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(y.data()[i], 7.0f + x.data()[i] * 2.0f);
}

TEST_F(VectorTest, IntegerBitOps) {
    auto a = ub<int16_t>(64, 0), b = ub<int16_t>(64, 256), d = ub<int16_t>(64, 512);
    for (int i = 0; i < 64; ++i) {
        a.data()[i] = int16_t(i * 37);
        b.data()[i] = int16_t(0x0F0F);
    }
    And(d, a, b, 64);
    for (int i = 0; i < 64; ++i) ASSERT_EQ(d.data()[i], int16_t(i * 37 & 0x0F0F));
    Or(d, a, b, 64);
    for (int i = 0; i < 64; ++i) ASSERT_EQ(d.data()[i], int16_t(i * 37 | 0x0F0F));
    Not(d, a, 64);
    for (int i = 0; i < 64; ++i) ASSERT_EQ(d.data()[i], int16_t(~(i * 37)));
    ShiftLeft(d, a, int16_t(2), 64);
    for (int i = 0; i < 64; ++i) ASSERT_EQ(d.data()[i], int16_t(i * 37 << 2));
    ShiftRight(d, a, int16_t(3), 64);
    for (int i = 0; i < 64; ++i) ASSERT_EQ(d.data()[i], int16_t(i * 37 >> 3));
}

// Continuous mask with strides: lane l of repeat r lives at (r*repStride + (l/8)*blkStride)*8 + l%8 for float.
TEST_F(VectorTest, MaskRepeatFormFollowsStrides) {
    auto a = ub<float>(1024, 0), b = ub<float>(1024, 4096), d = ub<float>(2048, 8192);
    for (uint32_t i = 0; i < 1024; ++i) {
        a.data()[i] = float(i);
        b.data()[i] = 1000.0f * float(i);
    }
    for (uint32_t i = 0; i < 2048; ++i) d.data()[i] = -1;
    // 3 repeats, first 20 lanes; dst blocks 2 apart, repeats 16 blocks apart; src0 contiguous;
    // src1 repeats 8 blocks apart with block stride 1.
    BinaryRepeatParams p(2, 1, 1, 16, 8, 8);
    Add(d, a, b, 20, 3, p);
    for (uint32_t r = 0; r < 3; ++r)
        for (uint32_t l = 0; l < 64; ++l) {
            const uint32_t di = (r * 16 + (l / 8) * 2) * 8 + l % 8;
            const uint32_t si = (r * 8 + l / 8) * 8 + l % 8;
            if (l < 20) ASSERT_EQ(d.data()[di], float(si) + 1000.0f * float(si)) << r << "," << l;
            else ASSERT_EQ(d.data()[di], -1.0f) << "lane " << l << " is masked off";
        }
}

TEST_F(VectorTest, BitMaskFormSelectsLanes) {
    auto x = ub<half>(256, 0), y = ub<half>(256, 1024);
    for (uint32_t i = 0; i < 256; ++i) {
        x.data()[i] = half(float(i % 50));
        y.data()[i] = half(-1.0f);
    }
    const uint64_t mask[2] = {0x5555555555555555ull, 0x1ull};  // even lanes of the first 64, and lane 64
    Muls(y, x, half(2.0f), mask, 2, UnaryRepeatParams());
    for (uint32_t r = 0; r < 2; ++r)
        for (uint32_t l = 0; l < 128; ++l) {
            const uint32_t i = r * 128 + l;
            const bool on = (l < 64 && l % 2 == 0) || l == 64;
            ASSERT_EQ(float(y.data()[i]), on ? 2.0f * float(x.data()[i]) : -1.0f) << i;
        }
}

TEST_F(VectorTest, CounterModeProcessesExactlyCountElements) {
    auto x = ub<float>(512, 0), y = ub<float>(512, 4096);
    for (uint32_t i = 0; i < 512; ++i) {
        x.data()[i] = float(i);
        y.data()[i] = -1;
    }
    SetMaskCount();
    SetVectorMask<float, MaskMode::COUNTER>(0, 150);
    Adds<float, false>(y, x, 1.0f, MASK_PLACEHOLDER, 1, UnaryRepeatParams());
    SetMaskNorm();
    ResetMask();
    for (uint32_t i = 0; i < 512; ++i) ASSERT_EQ(y.data()[i], i < 150 ? float(i) + 1 : -1.0f) << i;
}

// Copy in counter mode: the counter is the elements of each repeat and repeatTime counts (the
// Copy documentation; other instructions take the counter as the total). Rows of 24 int16 out of
// a table 40 blocks wide, into rows 3 blocks apart; repeat sizes past 255 blocks are kept whole.
TEST_F(VectorTest, CopyInCounterModeCopiesTheCountInEveryRepeat) {
    auto src = ub<int16_t>(16 * 300 * 3, 0), dst = ub<int16_t>(16 * 3 * 3, 65536);
    for (uint32_t i = 0; i < src.GetSize(); ++i) src.data()[i] = int16_t(i % 30000);
    for (uint32_t i = 0; i < dst.GetSize(); ++i) dst.data()[i] = -1;
    SetMaskCount();
    SetVectorMask<int16_t, MaskMode::COUNTER>(0, 24);
    Copy<int16_t, false>(dst, src, MASK_PLACEHOLDER, 3, CopyRepeatParams(1, 1, 3, 300));
    SetMaskNorm();
    ResetMask();
    for (uint32_t r = 0; r < 3; ++r)
        for (uint32_t e = 0; e < 48; ++e) {
            const int16_t want = e < 24 ? int16_t((r * 300 * 16 + e) % 30000) : int16_t(-1);
            ASSERT_EQ(dst.data()[r * 48 + e], want) << r << " " << e;
        }
}

TEST_F(VectorTest, CastRoundModes) {
    auto f = ub<float>(8, 0);
    auto h = ub<half>(16, 256);
    auto i32 = ub<int32_t>(8, 512);
    const float one_and_third_ulp = 1.0f + std::ldexp(1.0f, -10) / 3;  // between 1 and the next half
    const float tie = 1.0f + std::ldexp(1.0f, -11);                      // exactly halfway
    f.data()[0] = one_and_third_ulp;
    f.data()[1] = -one_and_third_ulp;
    f.data()[2] = tie;
    f.data()[3] = 1.0f + 3 * std::ldexp(1.0f, -11);
    auto cast_to_half = [&](RoundMode m) {
        Cast(h, f, m, 4);
        return std::vector<uint16_t>{h.data()[0].bits, h.data()[1].bits, h.data()[2].bits, h.data()[3].bits};
    };
    EXPECT_EQ(cast_to_half(RoundMode::CAST_RINT), (std::vector<uint16_t>{0x3C00, 0xBC00, 0x3C00, 0x3C02}));
    EXPECT_EQ(cast_to_half(RoundMode::CAST_FLOOR), (std::vector<uint16_t>{0x3C00, 0xBC01, 0x3C00, 0x3C01}));
    EXPECT_EQ(cast_to_half(RoundMode::CAST_CEIL), (std::vector<uint16_t>{0x3C01, 0xBC00, 0x3C01, 0x3C02}));
    EXPECT_EQ(cast_to_half(RoundMode::CAST_TRUNC), (std::vector<uint16_t>{0x3C00, 0xBC00, 0x3C00, 0x3C01}));
    EXPECT_EQ(cast_to_half(RoundMode::CAST_ROUND), (std::vector<uint16_t>{0x3C00, 0xBC00, 0x3C01, 0x3C02}));
    EXPECT_EQ(cast_to_half(RoundMode::CAST_ODD), (std::vector<uint16_t>{0x3C01, 0xBC01, 0x3C01, 0x3C01}));

    const float vals[] = {2.5f, -2.5f, 3.7f, -3.7f, 1e10f, -1e10f, std::nanf(""), 0.5f};
    for (int i = 0; i < 8; ++i) f.data()[i] = vals[i];
    Cast(i32, f, RoundMode::CAST_RINT, 8);
    EXPECT_EQ((std::vector<int32_t>(i32.data(), i32.data() + 8)),
              (std::vector<int32_t>{2, -2, 4, -4, INT32_MAX, INT32_MIN, 0, 0}));
    Cast(i32, f, RoundMode::CAST_ROUND, 8);
    EXPECT_EQ(i32.data()[0], 3);
    EXPECT_EQ(i32.data()[1], -3);
    Cast(i32, f, RoundMode::CAST_FLOOR, 4);
    EXPECT_EQ((std::vector<int32_t>(i32.data(), i32.data() + 4)), (std::vector<int32_t>{2, -3, 3, -4}));
    Cast(i32, f, RoundMode::CAST_CEIL, 4);
    EXPECT_EQ((std::vector<int32_t>(i32.data(), i32.data() + 4)), (std::vector<int32_t>{3, -2, 4, -3}));
    Cast(h, i32, RoundMode::CAST_NONE, 1);
    EXPECT_EQ(float(h.data()[0]), 3.0f);
}

TEST_F(VectorTest, CompareSelectAndScalarCompare) {
    auto a = ub<float>(64, 0), b = ub<float>(64, 256), d = ub<float>(64, 512);
    auto mask = ub<uint8_t>(32, 1024);
    for (int i = 0; i < 64; ++i) {
        a.data()[i] = float(i % 7);
        b.data()[i] = 3.0f;
    }
    Compare(mask, a, b, CMPMODE::GT, 64);
    for (int i = 0; i < 64; ++i) ASSERT_EQ((mask.data()[i / 8] >> (i % 8)) & 1, a.data()[i] > 3.0f ? 1 : 0) << i;
    Select(d, mask, a, b, SELMODE::VSEL_TENSOR_TENSOR_MODE, 64);
    for (int i = 0; i < 64; ++i) ASSERT_EQ(d.data()[i], std::max(a.data()[i], 3.0f));
    CompareScalar(mask, a, 2.0f, CMPMODE::LE, 64);
    Select(d, mask, a, -1.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 64);
    for (int i = 0; i < 64; ++i) ASSERT_EQ(d.data()[i], a.data()[i] <= 2.0f ? a.data()[i] : -1.0f);
}

TEST_F(VectorTest, GatherMaskAndCreateVecIndex) {
    auto src = ub<float>(64, 0), dst = ub<float>(64, 512);
    CreateVecIndex(src, 10.0f, 64);
    for (int i = 0; i < 64; ++i) ASSERT_EQ(src.data()[i], 10.0f + float(i));
    uint64_t kept = 0;
    GatherMask(dst, src, 2, false, 0, GatherMaskParams(1, 1, 8, 0), kept);  // odd lanes
    ASSERT_EQ(kept, 32u);
    for (int i = 0; i < 32; ++i) ASSERT_EQ(dst.data()[i], 11.0f + 2.0f * float(i));
}

// reduceMode (counter mode) on the 910B: `mask` elements of each of repeatTimes repeats, a mask
// of more than one repeat's lanes included (the documentation's first configuration).
TEST_F(VectorTest, GatherMaskReduceModeTakesMaskElementsOfEveryRepeat) {
    auto src = ub<float>(256, 0), dst = ub<float>(256, 1024);
    CreateVecIndex(src, 0.0f, 256);
    uint64_t kept = 0;
    GatherMask(dst, src, 7, true, 10, GatherMaskParams(1, 2, 8, 0), kept);
    ASSERT_EQ(kept, 20u);
    for (int i = 0; i < 10; ++i) {
        ASSERT_EQ(dst.data()[i], float(i));
        ASSERT_EQ(dst.data()[10 + i], float(64 + i));
    }
    // The documentation's example: mask 70 over two repeats 8 blocks apart reads 0..69, then 64..133.
    GatherMask(dst, src, 7, true, 70, GatherMaskParams(1, 2, 8, 0), kept);
    ASSERT_EQ(kept, 140u);
    EXPECT_EQ(dst.data()[69], 69.0f);
    EXPECT_EQ(dst.data()[70], 64.0f);
    EXPECT_EQ(dst.data()[139], 133.0f);
    // One repeat of 100 elements is contiguous whatever the repeat stride (gather_v3's 2-in-1
    // line passes a stride of 1 block): the pattern counts places within the repeat.
    GatherMask(dst, src, 2, true, 100, GatherMaskParams(1, 1, 1, 0), kept);
    ASSERT_EQ(kept, 50u);
    for (int i = 0; i < 50; ++i) ASSERT_EQ(dst.data()[i], float(2 * i + 1)) << i;
}

// Counter mode with a tensor pattern: the pattern is one bit per element over all `mask`
// elements, not one 256-bit block per repeat (masked_select_v3 passes src1RepeatStride 1).
TEST_F(VectorTest, GatherMaskCounterModeReadsThePatternAsOneBitString) {
    auto src = ub<float>(256, 0), dst = ub<float>(256, 1024);
    auto bits = ub<uint32_t>(8, 2048);
    CreateVecIndex(src, 0.0f, 256);
    for (int w = 0; w < 8; ++w) bits.data()[w] = 0;
    std::vector<int> expected;
    for (int i = 0; i < 200; ++i)
        if (i % 3 == 0 || i == 199) {
            bits.data()[i / 32] |= 1u << (i % 32);
            expected.push_back(i);
        }
    uint64_t kept = 0;
    GatherMask(dst, src, bits, true, 200, GatherMaskParams(1, 1, 8, 1), kept);
    ASSERT_EQ(kept, expected.size());
    for (size_t k = 0; k < expected.size(); ++k) ASSERT_EQ(dst.data()[k], float(expected[k])) << k;
    // Bits past the mask's elements are not read: element 200 stays out though its bit is set.
    bits.data()[200 / 32] |= 1u << (200 % 32);
    GatherMask(dst, src, bits, true, 200, GatherMaskParams(1, 1, 8, 1), kept);
    ASSERT_EQ(kept, expected.size());
    // half: 128 elements per repeat, the second repeat's elements from bit 128 on.
    auto hsrc = ub<half>(256, 4096), hdst = ub<half>(256, 8192);
    auto hbits = ub<uint16_t>(16, 12288);
    for (int i = 0; i < 256; ++i) hsrc.data()[i] = half(float(i));
    for (int w = 0; w < 16; ++w) hbits.data()[w] = 0;
    hbits.data()[130 / 16] |= uint16_t(1u << (130 % 16));
    hbits.data()[5 / 16] |= uint16_t(1u << 5);
    GatherMask(hdst, hsrc, hbits, true, 256, GatherMaskParams(1, 1, 8, 1), kept);
    ASSERT_EQ(kept, 2u);
    EXPECT_EQ(float(hdst.data()[0]), 5.0f);
    EXPECT_EQ(float(hdst.data()[1]), 130.0f);
}

// Normal mode with a tensor pattern: each repeat's bits are src1RepeatStride blocks apart.
TEST_F(VectorTest, GatherMaskNormalModePatternFollowsSrc1RepeatStride) {
    auto src = ub<float>(128, 0), dst = ub<float>(128, 1024);
    auto bits = ub<uint32_t>(16, 2048);
    CreateVecIndex(src, 0.0f, 128);
    for (int w = 0; w < 16; ++w) bits.data()[w] = 0;
    bits.data()[0] = 1u << 3;  // repeat 0, lane 3
    bits.data()[8] = 1u << 4;  // repeat 1 at block 1 (bit 256): lane 4
    uint64_t kept = 0;
    GatherMask(dst, src, bits, false, 0, GatherMaskParams(1, 2, 8, 1), kept);
    ASSERT_EQ(kept, 2u);
    EXPECT_EQ(dst.data()[0], 3.0f);
    EXPECT_EQ(dst.data()[1], 64.0f + 4.0f);
}

// A count-form reduction in counter mode the kernel set itself reduces the mask's element count
// (layer_norm_v4: SetMaskCount, SetVectorMask(rowSize), ReduceSum(..., 1), GetAccVal).
TEST_F(VectorTest, CountFormReductionInCounterModeTakesTheMasksCount) {
    auto x = ub<float>(256, 0), d = ub<float>(64, 2048), work = ub<float>(256, 4096);
    for (int i = 0; i < 256; ++i) x.data()[i] = float(i);
    SetMaskCount();
    SetVectorMask<float>(0, 100);
    ReduceSum(d, x, work, 1);
    SetMaskNorm();
    ResetMask();
    EXPECT_EQ(d.data()[0], float(99 * 100 / 2));
}

TEST_F(VectorTest, TensorOperatorsRunTheirBinaryApiOverTheWholeTensor) {
    auto a = ub<float>(64, 0), b = ub<float>(64, 256), d = ub<float>(64, 512);
    for (int i = 0; i < 64; ++i) {
        a.data()[i] = float(i);
        b.data()[i] = 2.0f;
    }
    d = a + b;
    EXPECT_EQ(d.data()[63], 65.0f);
    d = a * b;
    EXPECT_EQ(d.data()[10], 20.0f);
    d = a - b;
    EXPECT_EQ(d.data()[0], -2.0f);
    d = a / b;
    EXPECT_EQ(d.data()[5], 2.5f);
}

TEST_F(VectorTest, Reductions) {
    auto x = ub<float>(256, 0), d = ub<float>(64, 2048), work = ub<float>(256, 4096);
    for (int i = 0; i < 256; ++i) x.data()[i] = float((i * 37) % 101) - 50.0f;
    ReduceSum(d, x, work, 200);
    double sum = 0;
    for (int i = 0; i < 200; ++i) sum += x.data()[i];
    EXPECT_EQ(d.data()[0], float(sum));
    ReduceMax(d, x, work, 256, true);
    int best = 0;
    for (int i = 1; i < 256; ++i)
        if (x.data()[i] > x.data()[best]) best = i;
    EXPECT_EQ(d.data()[0], x.data()[best]);
    uint32_t index;
    std::memcpy(&index, &d.data()[1], 4);
    EXPECT_EQ(index, uint32_t(best));
    float value = 0, idx = 0;
    GetReduceMaxMinCount(value, idx);
    EXPECT_EQ(value, x.data()[best]);

    // ReduceSum's mask form: the first 10 lanes of 3 repeats, 12 blocks (96 floats) apart.
    ReduceSum(d, x, work, 10, 3, 12);
    double masked = 0;
    for (int r = 0; r < 3; ++r)
        for (int l = 0; l < 10; ++l) masked += x.data()[r * 96 + l];
    EXPECT_FLOAT_EQ(d.data()[0], float(masked));

    // WholeReduceSum: one result per repeat (64 floats each), first 10 lanes.
    WholeReduceSum(d, x, 10, 4, 1, 1, 8);
    for (int r = 0; r < 4; ++r) {
        float s = 0;
        for (int l = 0; l < 10; ++l) s += x.data()[r * 64 + l];
        EXPECT_EQ(d.data()[r], s) << r;
    }
    // WholeReduceMin with value/index pairs.
    WholeReduceMin(d, x, 64, 2, 1, 1, 8, ReduceOrder::ORDER_VALUE_INDEX);
    for (int r = 0; r < 2; ++r) {
        int m = 0;
        for (int l = 1; l < 64; ++l)
            if (x.data()[r * 64 + l] < x.data()[r * 64 + m]) m = l;
        EXPECT_EQ(d.data()[2 * r], x.data()[r * 64 + m]);
        uint32_t got;
        std::memcpy(&got, &d.data()[2 * r + 1], 4);
        EXPECT_EQ(got, uint32_t(m));
    }
    // BlockReduceSum: 8 results per repeat, one per 32-byte block.
    BlockReduceSum(d, x, 2, 64, 1, 1, 8);
    for (int r = 0; r < 2; ++r)
        for (int blk = 0; blk < 8; ++blk) {
            float s = 0;
            for (int e = 0; e < 8; ++e) s += x.data()[r * 64 + blk * 8 + e];
            EXPECT_EQ(d.data()[r * 8 + blk], s);
        }
    PairReduceSum(d, x, 1, 64, 1, 1, 8);
    for (int p = 0; p < 32; ++p) EXPECT_EQ(d.data()[p], x.data()[2 * p] + x.data()[2 * p + 1]);
}

// NaN propagates through Max/Min/Maxs/Mins and the max/min reductions wherever it is
// (docs/twin.md "NaN in comparisons"); before, a NaN in the second operand or after the first
// element of a reduction was dropped.
TEST_F(VectorTest, MaxMinAndTheirReductionsPropagateNaN) {
    const float nan = std::nanf("");
    auto a = ub<float>(64, 0), b = ub<float>(64, 1024), d = ub<float>(64, 2048), work = ub<float>(64, 4096);
    for (int i = 0; i < 64; ++i) a.data()[i] = b.data()[i] = float(i);
    a.data()[3] = nan;
    b.data()[5] = nan;
    Max(d, a, b, 64);
    EXPECT_TRUE(std::isnan(d.data()[3]));
    EXPECT_TRUE(std::isnan(d.data()[5]));
    EXPECT_EQ(d.data()[6], 6.0f);
    Min(d, a, b, 64);
    EXPECT_TRUE(std::isnan(d.data()[3]) && std::isnan(d.data()[5]));
    Maxs(d, a, 100.0f, 64);
    EXPECT_TRUE(std::isnan(d.data()[3]));
    EXPECT_EQ(d.data()[4], 100.0f);
    Mins(d, a, -1.0f, 64);
    EXPECT_TRUE(std::isnan(d.data()[3]));

    ReduceMax(d, a, work, 64, true);
    EXPECT_TRUE(std::isnan(d.data()[0]));
    uint32_t index;
    std::memcpy(&index, &d.data()[1], 4);
    EXPECT_EQ(index, 3u);  // the first NaN
    ReduceMin(d, a, work, 64);
    EXPECT_TRUE(std::isnan(d.data()[0]));
    WholeReduceMax(d, b, 64, 1, 1, 1, 8);
    EXPECT_TRUE(std::isnan(d.data()[0]));
    a.data()[3] = 3.0f;
    ReduceMax(d, a, work, 64);
    EXPECT_EQ(d.data()[0], 63.0f);
}
