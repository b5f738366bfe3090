// The advanced math library, Axpy's precision combinations, the scalar helpers and the host
// tmp-size helpers against scalar references: every result is the exact value (double) rounded
// once to the element type, which for 16-bit types the test finds by brute force over all values.
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include "ascendopt_twin/kernel/broadcast.h"
#include "ascendopt_twin/kernel/rearrange.h"
#include "tiling/tiling_api.h"
#include "twin_fixture.h"

using namespace AscendC;
using ascendopt_twin::ErrorKind;
using ascendopt_twin::testing::TwinCoreTest;

namespace {

template <class T>
void fill(const LocalTensor<T>& t, uint32_t n, double lo, double hi, uint32_t seed = 1) {
    uint32_t s = seed;
    for (uint32_t i = 0; i < n; ++i) {
        s = s * 1664525u + 1013904223u;
        t.data()[i] = static_cast<T>(float(lo + (hi - lo) * double(s >> 8) / double(1u << 24)));
    }
}

// The 16-bit value nearest to v (ties to the even bit pattern), by trying every finite value.
template <class H>
uint16_t nearest16(double v) {
    uint16_t best = 0;
    double best_err = std::numeric_limits<double>::infinity();
    for (uint32_t b = 0; b < 0x10000; ++b) {
        const double x = double(float(H::from_bits(uint16_t(b))));
        if (!std::isfinite(x)) continue;
        const double err = std::fabs(x - v);
        if (err < best_err || (err == best_err && (b & 1u) == 0 && (best & 1u) == 1)) {
            best = uint16_t(b);
            best_err = err;
        }
    }
    return best;
}

struct Shape1 {
    int64_t n;
    size_t GetDimNum() const { return 1; }
    int64_t GetDim(size_t) const { return n; }
};

using Ref = std::function<double(double)>;

}  // namespace

class MathTest : public TwinCoreTest {};

TEST_F(MathTest, UnaryFloatResultsAreTheExactValuesRounded) {
    const uint32_t n = 200;
    auto x = ub<float>(256, 0), y = ub<float>(256, 4096);
    struct Case {
        const char* name;
        double lo, hi;
        std::function<void()> call;
        Ref ref;
    };
    const Case cases[] = {
        {"Asin", -0.99, 0.99, [&] { Asin(y, x, n); }, [](double a) { return std::asin(a); }},
        {"Acos", -0.99, 0.99, [&] { Acos(y, x, n); }, [](double a) { return std::acos(a); }},
        {"Atan", -20, 20, [&] { Atan(y, x, n); }, [](double a) { return std::atan(a); }},
        {"Sin", -10, 10, [&] { Sin(y, x, n); }, [](double a) { return std::sin(a); }},
        {"Cos", -10, 10, [&] { Cos(y, x, n); }, [](double a) { return std::cos(a); }},
        {"Tan", -1.5, 1.5, [&] { Tan(y, x, n); }, [](double a) { return std::tan(a); }},
        {"Tanh", -5, 5, [&] { Tanh(y, x, n); }, [](double a) { return std::tanh(a); }},
        {"Sinh", -5, 5, [&] { Sinh(y, x, n); }, [](double a) { return std::sinh(a); }},
        {"Cosh", -5, 5, [&] { Cosh(y, x, n); }, [](double a) { return std::cosh(a); }},
        {"Asinh", -50, 50, [&] { Asinh(y, x, n); }, [](double a) { return std::asinh(a); }},
        {"Acosh", 1, 50, [&] { Acosh(y, x, n); }, [](double a) { return std::acosh(a); }},
        {"Atanh", -0.99, 0.99, [&] { Atanh(y, x, n); }, [](double a) { return std::atanh(a); }},
        {"Erf", -3, 3, [&] { Erf(y, x, n); }, [](double a) { return std::erf(a); }},
        {"Erfc", -3, 8, [&] { Erfc(y, x, n); }, [](double a) { return std::erfc(a); }},
        {"Sigmoid", -20, 20, [&] { Sigmoid(y, x, n); }, [](double a) { return 1.0 / (1.0 + std::exp(-a)); }},
        {"Log", 0.001, 1000, [&] { Log(y, x, n); }, [](double a) { return std::log(a); }},
        {"Log2", 0.001, 1000, [&] { Log2(y, x, n); }, [](double a) { return std::log2(a); }},
        {"Log10", 0.001, 1000, [&] { Log10(y, x, n); }, [](double a) { return std::log10(a); }},
        {"Exp(taylor 15)", -20, 20, [&] { Exp<float, 15>(y, x, n); }, [](double a) { return std::exp(a); }},
        {"Floor", -50, 50, [&] { Floor(y, x, n); }, [](double a) { return std::floor(a); }},
        {"Ceil", -50, 50, [&] { Ceil(y, x, n); }, [](double a) { return std::ceil(a); }},
        {"Trunc", -50, 50, [&] { Trunc(y, x, n); }, [](double a) { return std::trunc(a); }},
        {"Frac", -50, 50, [&] { Frac(y, x, n); }, [](double a) { return a - std::trunc(a); }},
        {"Sign", -5, 5, [&] { Sign(y, x, n); }, [](double a) { return a > 0 ? 1.0 : (a < 0 ? -1.0 : 0.0); }},
    };
    for (const auto& c : cases) {
        fill(x, n, c.lo, c.hi, 7);
        y.data()[n] = 123.0f;  // past calCount: untouched
        c.call();
        for (uint32_t i = 0; i < n; ++i)
            ASSERT_EQ(y.data()[i], float(c.ref(double(x.data()[i])))) << c.name << " of " << x.data()[i];
        EXPECT_EQ(y.data()[n], 123.0f) << c.name;
    }
}

TEST_F(MathTest, SixteenBitResultsRoundOnceToNearestEven) {
    const uint32_t n = 48;
    auto x = ub<half>(64, 0), y = ub<half>(64, 1024);
    fill(x, n, -0.99, 0.99, 3);
    Asin(y, x, n);
    for (uint32_t i = 0; i < n; ++i)
        ASSERT_EQ(y.data()[i].bits, nearest16<half>(std::asin(double(float(x.data()[i]))))) << "Asin of " << float(x.data()[i]);
    fill(x, n, -8, 8, 4);
    Sigmoid(y, x, n);
    for (uint32_t i = 0; i < n; ++i)
        ASSERT_EQ(y.data()[i].bits, nearest16<half>(1.0 / (1.0 + std::exp(-double(float(x.data()[i]))))));
    auto bx = ub<bfloat16_t>(64, 2048), by = ub<bfloat16_t>(64, 3072);
    fill(bx, n, -6, 6, 5);
    Cos(by, bx, n);
    for (uint32_t i = 0; i < n; ++i)
        ASSERT_EQ(by.data()[i].bits, nearest16<bfloat16_t>(std::cos(double(float(bx.data()[i])))));
}

TEST_F(MathTest, RoundBreaksTiesToEven) {
    auto x = ub<float>(8, 0), y = ub<float>(8, 256);
    const float in[8] = {0.5f, 1.5f, 2.5f, -2.5f, 3.5f, -3.4f, 2.6f, -0.5f};
    const float out[8] = {0.0f, 2.0f, 2.0f, -2.0f, 4.0f, -3.0f, 3.0f, -0.0f};
    for (int i = 0; i < 8; ++i) x.data()[i] = in[i];
    Round(y, x, 8);
    for (int i = 0; i < 8; ++i) EXPECT_EQ(y.data()[i], out[i]) << in[i];
}

TEST_F(MathTest, WholeTensorFormsUseTheSourceSize) {
    auto x = ub<float>(64, 0), y = ub<float>(128, 1024);
    x.SetSize(40);
    fill(x, 64, 0.5, 4, 9);
    for (uint32_t i = 0; i < 128; ++i) y.data()[i] = -1;
    Log10(y, x);
    for (uint32_t i = 0; i < 40; ++i) ASSERT_EQ(y.data()[i], float(std::log10(double(x.data()[i]))));
    EXPECT_EQ(y.data()[40], -1.0f);
    auto tmp = ub<uint8_t>(4096, 8192);
    Tanh(y, x, tmp);
    for (uint32_t i = 0; i < 40; ++i) ASSERT_EQ(y.data()[i], float(std::tanh(double(x.data()[i]))));
    EXPECT_EQ(y.data()[40], -1.0f);
}

TEST_F(MathTest, PowerInAllThreeForms) {
    const uint32_t n = 64;
    auto a = ub<float>(n, 0), b = ub<float>(n, 1024), d = ub<float>(n, 2048);
    fill(a, n, 0.1, 5, 11);
    fill(b, n, -3, 3, 12);
    Power(d, a, b, n);
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(d.data()[i], float(std::pow(double(a.data()[i]), double(b.data()[i]))));
    Power<float, false>(d, a, 2.5f, n);
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(d.data()[i], float(std::pow(double(a.data()[i]), 2.5)));
    Power<float, false>(d, 3.0f, b, n);
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(d.data()[i], float(std::pow(3.0, double(b.data()[i]))));
    auto h = ub<half>(n, 4096), hd = ub<half>(n, 5120);
    fill(h, n, 0.1, 3, 13);
    Power<half, false>(hd, h, half(3.0f), n);
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(hd.data()[i].bits, nearest16<half>(std::pow(double(float(h.data()[i])), 3.0)));
    auto ia = ub<int32_t>(8, 6144), ib = ub<int32_t>(8, 6400), id = ub<int32_t>(8, 6656);
    const int32_t base[8] = {2, -3, 5, 1, -1, 7, 0, 2}, ex[8] = {10, 3, 0, -4, -3, 2, 5, -1};
    const int32_t want[8] = {1024, -27, 1, 1, -1, 49, 0, 0};
    for (int i = 0; i < 8; ++i) ia.data()[i] = base[i], ib.data()[i] = ex[i];
    Power(id, ia, ib, 8);
    for (int i = 0; i < 8; ++i) EXPECT_EQ(id.data()[i], want[i]) << base[i] << "^" << ex[i];
}

TEST_F(MathTest, XorOfInt16) {
    auto a = ub<int16_t>(64, 0), b = ub<int16_t>(64, 256), d = ub<int16_t>(64, 512);
    for (int i = 0; i < 64; ++i) a.data()[i] = int16_t(i * 977), b.data()[i] = int16_t(0x5a5a - i);
    Xor(d, a, b, 64);
    for (int i = 0; i < 64; ++i) ASSERT_EQ(d.data()[i], int16_t(a.data()[i] ^ b.data()[i]));
}

// The host's minValue is exactly what the kernel accepts; a buffer one byte short is refused,
// and so is one that overlaps an operand.
TEST_F(MathTest, SharedTmpBufferIsCheckedAgainstTheHostMinimum) {
    auto x = ub<half>(256, 0), y = ub<half>(256, 1024);
    fill(x, 256, -3, 3, 2);
    uint32_t maxValue = 0, minValue = 0;
    GetSinMaxMinTmpSize(Shape1{256}, 2, false, maxValue, minValue);
    ASSERT_GT(minValue, 0u);
    EXPECT_GE(maxValue, minValue);
    auto tmp = ub<uint8_t>(minValue, 4096);
    Sin(y, x, tmp, 256);
    for (uint32_t i = 0; i < 256; ++i) ASSERT_EQ(y.data()[i].bits, half(float(std::sin(double(float(x.data()[i]))))).bits);
    auto small = ub<uint8_t>(minValue - 1, 4096);
    EXPECT_TWIN_ERROR(Sin(y, x, small, 256), ErrorKind::run_failed, "below the minimum");
    auto overlapping = LocalTensor<uint8_t>(reinterpret_cast<uint8_t*>(y.data()), minValue);
    EXPECT_TWIN_ERROR(Sin(y, x, overlapping, 256), ErrorKind::run_failed, "overlaps");

    GetSigmoidMaxMinTmpSize(Shape1{1024}, 4, false, maxValue, minValue);
    auto f = ub<float>(64, 8192), g = ub<float>(64, 9216);
    fill(f, 64, -2, 2, 3);
    auto ok = ub<uint8_t>(minValue, 12288);
    Sigmoid(g, f, ok, 64);
    EXPECT_TWIN_ERROR(Sigmoid(g, f, ub<uint8_t>(minValue - 32, 12288), 64), ErrorKind::run_failed, "GetSigmoidMaxMinTmpSize");

    uint32_t nodes = 0, extra = 7;
    GetAsinTmpBufferFactorSize(2, nodes, extra);
    EXPECT_GT(nodes, 0u);
    EXPECT_EQ(extra, 0u);
    GetPowerMaxMinTmpSize(Shape1{512}, Shape1{1}, false, 4, false, maxValue, minValue);
    auto pa = ub<float>(64, 16384), pd = ub<float>(64, 17408);
    fill(pa, 64, 0.5, 2, 4);
    Power(pd, pa, 2.0f, ub<uint8_t>(minValue, 20480), 64);
    EXPECT_TWIN_ERROR(Power(pd, pa, 2.0f, ub<uint8_t>(minValue / 2, 20480), 64), ErrorKind::run_failed, "below the minimum");
}

// Axpy: half -> half and float -> float round once; the mixed half -> float combination reads
// 64 source lanes (four 32-byte blocks of half) per repeat in its mask form.
TEST_F(MathTest, AxpyPrecisionCombinations) {
    const uint32_t n = 130;
    auto hs = ub<half>(256, 0), hd = ub<half>(256, 1024);
    auto fd = ub<float>(256, 2048);
    fill(hs, n, -4, 4, 21);
    fill(hd, n, -4, 4, 22);
    fill(fd, n, -4, 4, 23);
    std::vector<float> hd0(n), fd0(n);
    for (uint32_t i = 0; i < n; ++i) hd0[i] = float(hd.data()[i]), fd0[i] = fd.data()[i];
    Axpy<half, half>(hd, hs, half(1.5f), int32_t(n));
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(hd.data()[i].bits, half(hd0[i] + float(hs.data()[i]) * 1.5f).bits);
    Axpy<float, half>(fd, hs, half(-0.25f), int32_t(n));
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(fd.data()[i], fd0[i] + float(hs.data()[i]) * -0.25f);

    // Mask form, mixed: 2 repeats of the first 40 lanes; source repeats 4 blocks apart (64 halfs),
    // destination repeats 8 blocks apart (64 floats).
    auto md = ub<float>(256, 4096);
    for (uint32_t i = 0; i < 256; ++i) md.data()[i] = 1.0f;
    Axpy(md, hs, half(2.0f), 40, 2, UnaryRepeatParams(1, 1, 8, 4));
    for (uint32_t r = 0; r < 2; ++r)
        for (uint32_t lane = 0; lane < 64; ++lane) {
            const float want = lane < 40 ? 1.0f + float(hs.data()[r * 64 + lane]) * 2.0f : 1.0f;
            ASSERT_EQ(md.data()[r * 64 + lane], want) << "repeat " << r << " lane " << lane;
        }

    // The math library's Axpy: Muls, then Add, each rounded to half.
    auto a = ub<half>(64, 6144), b = ub<half>(64, 7168);
    fill(a, 64, -100, 100, 24);
    fill(b, 64, -1, 1, 25);
    std::vector<half> a0(a.data(), a.data() + 64);
    Axpy<half, half>(a, b, half(0.3f), ub<uint8_t>(4096, 8192), 64);
    for (uint32_t i = 0; i < 64; ++i) {
        const half product = half(float(b.data()[i]) * float(half(0.3f)));
        ASSERT_EQ(a.data()[i].bits, half(float(a0[i]) + float(product)).bits);
    }
}

TEST_F(MathTest, ScalarHelpersAndConstants) {
    EXPECT_EQ(ToFloat(bfloat16_t(1.5f)), 1.5f);
    EXPECT_EQ(ToBfloat16(1.00390625f).bits, bfloat16_t(1.0f).bits);  // halfway: ties to even
    EXPECT_EQ(ToBfloat16(1.01171875f).bits, uint16_t(0x3f82));        // 1 + 3/256 rounds up to 1 + 4/256
    static_assert(IsSameType<float, float>::value && !IsSameType<float, half>::value);
    static_assert(std::is_same_v<Conditional<true, int, float>::type, int> && std::is_same_v<Conditional<false, int, float>::type, float>);
    EXPECT_EQ(AscendCUtils::GetC0Count(2), 16u);
    static_assert(AlignUp(10, 8) == 16 && AlignUp(16u, 8) == 16u && DivCeil(17, 8) == 3 && DivCeil(int64_t(1) << 40, 3) == 366503875926);
    EXPECT_TWIN_ERROR(AlignUp(3, int(ONE_BLK_SIZE) - 32), ErrorKind::run_failed, "AlignUp");
    EXPECT_EQ(GetDataBlockSizeInBytes(), 32u);
    AscendCUtils::SetMask<float>(20);
    EXPECT_EQ(ascendopt_twin::mask_state().lo, (1ull << 20) - 1);
    set_mask_count();
    EXPECT_TRUE(ascendopt_twin::mask_state().counter_mode);
    set_mask_norm();
    EXPECT_FALSE(ascendopt_twin::mask_state().counter_mode);

    int32_t* host = nullptr;
    auto g = gm<int32_t>(100, &host);
    InitGlobalMemory(g, 100, 7);
    for (int i = 0; i < 100; ++i) ASSERT_EQ(host[i], 7);
    InitGlobalMemory(g[90], 10, -1);
    EXPECT_EQ(host[89], 7);
    EXPECT_EQ(host[90], -1);
    EXPECT_TWIN_ERROR(InitGlobalMemory(g[50], 100000, 0), ErrorKind::run_failed, "InitGlobalMemory");
    InitOutput<int32_t>(g[10], 5, 3);  // the older name
    EXPECT_EQ(host[9], 7);
    EXPECT_EQ(host[10], 3);
    EXPECT_EQ(host[14], 3);
    EXPECT_EQ(host[15], 7);
}

class RearrangeTest : public TwinCoreTest {};

TEST_F(RearrangeTest, BrcbFillsOneBlockPerSourceElement) {
    auto src = ub<float>(16, 0), dst = ub<float>(512, 1024);
    for (int i = 0; i < 16; ++i) src.data()[i] = float(i + 1);
    for (int i = 0; i < 512; ++i) dst.data()[i] = -1;
    Brcb(dst, src, 2, BrcbRepeatParams(2, 16));  // blocks 2 apart, repeats 16 blocks apart
    for (uint32_t r = 0; r < 2; ++r)
        for (uint32_t j = 0; j < 8; ++j)
            for (uint32_t k = 0; k < 8; ++k) {
                ASSERT_EQ(dst.data()[(r * 16 + j * 2) * 8 + k], float(r * 8 + j + 1)) << r << " " << j;
                ASSERT_EQ(dst.data()[(r * 16 + j * 2 + 1) * 8 + k], -1.0f);  // the skipped blocks
            }
}

TEST_F(RearrangeTest, ArithProgressionRoundsEachTermOnce) {
    auto h = ub<half>(300, 0);
    ArithProgression(h, half(-3.0f), half(0.1f), 300);
    for (int i = 0; i < 300; ++i) ASSERT_EQ(h.data()[i].bits, half(-3.0f + float(i) * float(half(0.1f))).bits) << i;
    auto n = ub<int32_t>(40, 1024);
    ArithProgression(n, 5, -2, 40);
    for (int i = 0; i < 40; ++i) ASSERT_EQ(n.data()[i], 5 - 2 * i);
}

TEST_F(RearrangeTest, GatherReadsByteOffsets) {
    auto src = ub<float>(64, 0), dst = ub<float>(128, 1024);
    auto off = ub<uint32_t>(128, 2048);
    for (int i = 0; i < 64; ++i) src.data()[i] = float(i) * 10;
    for (uint32_t i = 0; i < 20; ++i) off.data()[i] = ((i * 7) % 30) * 4;
    Gather(dst, src, off, 8u, 20u);  // base 8 bytes: two elements in
    for (uint32_t i = 0; i < 20; ++i) ASSERT_EQ(dst.data()[i], src.data()[2 + (i * 7) % 30]);
    // Mask form: 2 repeats of the first 10 lanes, destination repeats 2 blocks apart.
    for (uint32_t i = 0; i < 128; ++i) off.data()[i] = (i % 64) * 4, dst.data()[i] = -1;
    Gather(dst, src, off, 0u, uint64_t(10), 2, 2);
    for (uint32_t r = 0; r < 2; ++r)
        for (uint32_t lane = 0; lane < 16; ++lane)
            ASSERT_EQ(dst.data()[r * 16 + lane], lane < 10 ? src.data()[(r * 64 + lane) % 64] : -1.0f) << r << " " << lane;
    off.data()[0] = 6;
    EXPECT_TWIN_ERROR(Gather(dst, src, off, 0u, 1u), ErrorKind::run_failed, "byte offset 6");
    strict_ub();  // an offset past the source's buffer (inside the UB) fails under --strict-ub
    auto s2 = ub<float>(64, 0), d2 = ub<float>(64, 1024);
    auto o2 = ub<uint32_t>(8, 2048);
    o2.data()[0] = 4096;
    EXPECT_TWIN_ERROR(Gather(d2, s2, o2, 0u, 1u), ErrorKind::run_failed, "Gather");
}

TEST_F(RearrangeTest, GatherbCopiesWholeBlocksByByteOffset) {
    // 16 source blocks of 16 uint16 each; 2 repeats of 8 blocks, offsets in reverse block order.
    auto src = ub<uint16_t>(256, 0), dst = ub<uint16_t>(1024, 1024);
    auto off = ub<uint32_t>(16, 4096);
    for (int i = 0; i < 256; ++i) src.data()[i] = uint16_t(i * 3 + 1);
    for (uint32_t i = 0; i < 16; ++i) off.data()[i] = (15 - i) * 32;
    for (int i = 0; i < 1024; ++i) dst.data()[i] = 0xFFFF;
    Gatherb(dst, src, off, 2, GatherRepeatParams{2, 20});  // blocks 2 apart, repeats 20 blocks apart
    for (uint32_t r = 0; r < 2; ++r)
        for (uint32_t j = 0; j < 8; ++j)
            for (uint32_t k = 0; k < 16; ++k) {
                const uint32_t at = (r * 20 + j * 2) * 16 + k;
                ASSERT_EQ(dst.data()[at], src.data()[(15 - (r * 8 + j)) * 16 + k]) << r << " " << j << " " << k;
                ASSERT_EQ(dst.data()[at + 16], 0xFFFF) << "the gap block between strides stays";
            }
    // uint32 with the default strides: 8 blocks back to back per repeat.
    auto s32 = ub<uint32_t>(64, 8192), d32 = ub<uint32_t>(64, 9216);
    auto o32 = ub<uint32_t>(8, 10240);
    for (int i = 0; i < 64; ++i) s32.data()[i] = uint32_t(1000 + i);
    for (uint32_t i = 0; i < 8; ++i) o32.data()[i] = (i % 2) * 32;
    Gatherb(d32, s32, o32, 1, GatherRepeatParams{});
    for (uint32_t i = 0; i < 64; ++i) ASSERT_EQ(d32.data()[i], 1000u + ((i / 8) % 2) * 8 + i % 8) << i;
    o32.data()[3] = 40;
    EXPECT_TWIN_ERROR(Gatherb(d32, s32, o32, 1, GatherRepeatParams{}), ErrorKind::run_failed, "offset[3] = 40 is not a multiple of 32");
    EXPECT_TWIN_ERROR(Gatherb(d32, s32, o32, 0, GatherRepeatParams{}), ErrorKind::run_failed, "repeatTime 0");
}

TEST_F(RearrangeTest, TransDataTo5HDTransposesBlocks) {
    // 16-bit: a 16 x 16 transpose.
    auto s = ub<int16_t>(256, 0), d = ub<int16_t>(256, 1024);
    for (int i = 0; i < 256; ++i) s.data()[i] = int16_t(i);
    LocalTensor<int16_t> dl[16], sl[16];
    for (int i = 0; i < 16; ++i) dl[i] = d[i * 16], sl[i] = s[i * 16];
    TransDataTo5HD<int16_t>(dl, sl, TransDataTo5HDParams(false, false, 1, 0, 0));
    for (int j = 0; j < 16; ++j)
        for (int i = 0; i < 16; ++i) ASSERT_EQ(d.data()[j * 16 + i], int16_t(i * 16 + j));
    // 32-bit through the address-list form: loop j fills blocks 2j and 2j+1.
    auto fs = ub<int32_t>(128, 2048), fd = ub<int32_t>(128, 3072);
    for (int i = 0; i < 128; ++i) fs.data()[i] = i;
    uint64_t da[16], sa[16];
    for (int i = 0; i < 16; ++i) da[i] = uint64_t(fd[i * 8].GetPhyAddr()), sa[i] = uint64_t(fs[i * 8].GetPhyAddr());
    TransDataTo5HD<int32_t>(da, sa, TransDataTo5HDParams(false, false, 1, 0, 0));
    for (int j = 0; j < 8; ++j)
        for (int i = 0; i < 16; ++i) ASSERT_EQ(fd.data()[(2 * j + i / 8) * 8 + i % 8], i * 8 + j);
    // 8-bit, high source half into the high destination half, two repeats one block apart.
    auto bs = ub<uint8_t>(1024, 4096), bd = ub<uint8_t>(1024, 6144);
    for (int i = 0; i < 1024; ++i) bs.data()[i] = uint8_t(i * 3), bd.data()[i] = 0xEE;
    LocalTensor<uint8_t> bdl[16], bsl[16];
    for (int i = 0; i < 16; ++i) bdl[i] = bd[i * 64], bsl[i] = bs[i * 64];
    TransDataTo5HD<uint8_t>(bdl, bsl, TransDataTo5HDParams(true, true, 2, 1, 1));
    for (int r = 0; r < 2; ++r)
        for (int j = 0; j < 16; ++j)
            for (int i = 0; i < 16; ++i) {
                ASSERT_EQ(bd.data()[j * 64 + r * 32 + 16 + i], uint8_t((i * 64 + r * 32 + 16 + j) * 3));
                ASSERT_EQ(bd.data()[j * 64 + r * 32 + i], 0xEE);  // low half untouched
            }
    uint64_t bad[16];
    for (int i = 0; i < 16; ++i) bad[i] = uint64_t(fd[i * 8].GetPhyAddr()) + 4;
    EXPECT_TWIN_ERROR(TransDataTo5HD<int32_t>(bad, sa, TransDataTo5HDParams()), ErrorKind::run_failed, "not 32-byte aligned");
}

TEST_F(RearrangeTest, RepeatReduceSumAndFusedMultiplyAdds) {
    auto src = ub<float>(256, 0), dst = ub<float>(16, 1024);
    for (int i = 0; i < 256; ++i) src.data()[i] = float(i % 17) - 3.5f;
    for (int i = 0; i < 16; ++i) dst.data()[i] = -99;
    RepeatReduceSum<float>(dst, src, 3, 10, 0, 1, 2, 8);  // results 2 apart
    for (int r = 0; r < 3; ++r) {
        double want = 0;
        for (int k = 0; k < 10; ++k) want += src.data()[r * 64 + k];
        EXPECT_EQ(dst.data()[r * 2], float(want));
        EXPECT_EQ(dst.data()[r * 2 + 1], -99.0f);
    }
    // srcBlkStride 0 reads the repeat's eight blocks in a row (see rearrange.h): 64 lanes.
    RepeatReduceSum<float>(dst, src, 1, 64, 0, 0, 1, 1);
    double all = 0;
    for (int k = 0; k < 64; ++k) all += src.data()[k];
    EXPECT_EQ(dst.data()[0], float(all));
    auto big = ub<half>(128, 2048), hs = ub<half>(8, 2560);
    for (int i = 0; i < 128; ++i) big.data()[i] = half(60000.0f);
    RepeatReduceSum<half>(hs, big, 1, 128, 0, 1, 1, 8);
    EXPECT_EQ(float(hs.data()[0]), 65504.0f);  // saturates, as documented

    auto a = ub<float>(64, 4096), b = ub<float>(64, 4352), d = ub<float>(64, 4608);
    for (int i = 0; i < 64; ++i) a.data()[i] = 0.5f * i, b.data()[i] = 3.0f - i, d.data()[i] = 1.25f * i;
    std::vector<float> d0(d.data(), d.data() + 64);
    FusedMulAdd(d, a, b, 64);
    for (int i = 0; i < 64; ++i) ASSERT_EQ(d.data()[i], a.data()[i] * d0[i] + b.data()[i]);
    auto h0 = ub<half>(64, 5120), h1 = ub<half>(64, 5376);
    for (int i = 0; i < 64; ++i) h0.data()[i] = half(0.1f * i), h1.data()[i] = half(-0.3f * i);
    std::vector<float> d1(d.data(), d.data() + 64);
    MulAddDst<float, half>(d, h0, h1, 64);
    for (int i = 0; i < 64; ++i) ASSERT_EQ(d.data()[i], float(h0.data()[i]) * float(h1.data()[i]) + d1[i]);
}

TEST_F(RearrangeTest, BroadCastRepeatsTheUnitAxis) {
    auto src = ub<float>(8, 0), dst = ub<float>(64, 1024);
    for (int i = 0; i < 8; ++i) src.data()[i] = float(i + 1);
    const uint32_t rowShape[2] = {1, 8}, dstShape[2] = {4, 8};
    BroadCast<float, 2, 0>(dst, src, dstShape, rowShape);
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 8; ++j) ASSERT_EQ(dst.data()[i * 8 + j], float(j + 1));
    const uint32_t colShape[2] = {4, 1};
    BroadCast<float, 2, 1>(dst, src, dstShape, colShape, ub<uint8_t>(256, 4096));
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 8; ++j) ASSERT_EQ(dst.data()[i * 8 + j], float(i + 1));
    EXPECT_TWIN_ERROR((BroadCast<float, 2, 1>(dst, src, dstShape, rowShape)), ErrorKind::run_failed, "extent 1");
}

namespace {
// numpy's broadcast_to of a row-major [rows or 1, cols or 1] source to [rows, cols].
template <class T>
std::vector<T> broadcast_reference(const T* src, uint32_t src_rows, uint32_t src_cols, uint32_t rows, uint32_t cols) {
    std::vector<T> out(size_t(rows) * cols);
    for (uint32_t i = 0; i < rows; ++i)
        for (uint32_t j = 0; j < cols; ++j) out[size_t(i) * cols + j] = src[(src_rows == 1 ? 0 : i) * src_cols + (src_cols == 1 ? 0 : j)];
    return out;
}
}  // namespace

TEST_F(RearrangeTest, BroadcastMatchesNumpysBroadcastTo) {
    // dim 1: [1] -> [n] (inplace_fused_matmul_softmax_grad's form), with a length not a whole block.
    auto s1 = ub<float>(8, 0), d1 = ub<float>(64, 1024);
    s1.data()[0] = -2.5f;
    const uint32_t one[1] = {1}, n[1] = {37};
    Broadcast<float, 1, 0>(d1, s1, n, one);
    const auto r1 = broadcast_reference(s1.data(), 1, 1, 1, 37);
    for (int j = 0; j < 37; ++j) ASSERT_EQ(d1.data()[j], r1[j]) << j;
    // dim 2, half, k = 13 (not 32-byte aligned): [m, 1] -> [m, k] and [1, k] -> [m, k].
    auto s2 = ub<half>(16, 4096), d2 = ub<half>(128, 5120);
    for (int i = 0; i < 16; ++i) s2.data()[i] = half(float(i) * 0.25f - 1.0f);
    const uint32_t dst_shape[2] = {5, 13}, col[2] = {5, 1}, row[2] = {1, 13};
    Broadcast<half, 2, 1>(d2, s2, dst_shape, col, ub<uint8_t>(1024, 8192));
    auto r2 = broadcast_reference(s2.data(), 5, 1, 5, 13);
    for (int k = 0; k < 65; ++k) ASSERT_EQ(d2.data()[k].bits, r2[k].bits) << k;
    Broadcast<half, 2, 0>(d2, s2, dst_shape, row);
    r2 = broadcast_reference(s2.data(), 1, 13, 5, 13);
    for (int k = 0; k < 65; ++k) ASSERT_EQ(d2.data()[k].bits, r2[k].bits) << k;
    EXPECT_TWIN_ERROR((Broadcast<half, 2, 0>(d2, s2, dst_shape, col)), ErrorKind::run_failed, "Broadcast: srcShape[0] is 5");
    const uint32_t other_cols[2] = {5, 12};
    EXPECT_TWIN_ERROR((Broadcast<half, 2, 0>(d2, s2, other_cols, row)), ErrorKind::run_failed, "differs from dstShape[1]");
}

TEST_F(RearrangeTest, CompareScalarMaskFormWritesOneBitPerLane) {
    auto x = ub<float>(256, 0);
    auto bits = ub<uint8_t>(64, 2048);
    for (int i = 0; i < 256; ++i) x.data()[i] = float(i % 7);
    for (int i = 0; i < 64; ++i) bits.data()[i] = 0xAA;
    CompareScalar(bits, x, 3.0f, CMPMODE::LE, uint64_t(40), 2, UnaryRepeatParams(1, 1, 8, 16));  // repeats 128 floats apart
    for (uint32_t r = 0; r < 2; ++r)
        for (uint32_t lane = 0; lane < 64; ++lane) {
            const uint32_t bit = r * 64 + lane;
            const bool got = (bits.data()[bit / 8] >> (bit % 8)) & 1u;
            const bool want = lane < 40 && x.data()[r * 128 + lane] <= 3.0f;
            ASSERT_EQ(got, want) << "repeat " << r << " lane " << lane;
        }
}

// Every API of the tmp-size table: the host's range is consistent and the kernel accepts a
// buffer of exactly minValue bytes (Asin's form stands for the check every API shares).
TEST(MathTmpTable, HostSizesAreConsistentForEveryApi) {
    using namespace ascendopt_twin::math_tmp;
    for (const Spec& s : k_specs) {
        const Api api = Api(&s - k_specs);
        for (uint32_t size : {2u, 4u}) {
            EXPECT_EQ(min_bytes(api, size), s.nodes * 256u) << s.name;
            EXPECT_GE(max_bytes(api, size, 1), min_bytes(api, size)) << s.name;
            EXPECT_EQ(max_bytes(api, size, 64 * 1024), uint64_t(s.nodes) * 4 * 64 * 1024) << s.name;
            EXPECT_EQ(live_node_count(api, size), s.nodes * 4 / size) << s.name;
        }
    }
    uint32_t maxValue = 0, minValue = 0;
    GetErfcMaxMinTmpSize(Shape1{100}, 2, false, maxValue, minValue);
    EXPECT_EQ(minValue, min_bytes(Api::Erfc, 2));
    EXPECT_EQ(maxValue, std::max<uint64_t>(min_bytes(Api::Erfc, 2), 6u * 4 * 128));
}
