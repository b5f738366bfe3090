// The cube APIs against scalar references: ND -> NZ, LoadData with and without transpose,
// Mmad (fp16, bf16, fp32/HF32, int8; zero, accumulate and bias initial values; GEMV), Fixpipe
// in each layout and quantization mode, queues in the cube memories, and the misuse the twin
// reports (memory overflow, misaligned fractals, cube APIs on vector cores and back), and the
// address space a full 24-block mixed launch needs.
#include <cmath>
#include <random>
#include <vector>
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>

#include "twin_fixture.h"

using namespace AscendC;
using ascendopt_twin::CoreKind;
using ascendopt_twin::ErrorKind;
using ascendopt_twin::Mem;

namespace {

// A cube core (AIC) on the test thread, with its L1, L0A, L0B, L0C, BT and FB.
class CubeTest : public ::testing::Test {
protected:
    void SetUp() override { make_core(CoreKind::aic); }
    void TearDown() override {
        m_core.reset();
        m_gm.reset();
    }
    void make_core(CoreKind kind) {
        m_core.reset();
        if (!m_gm) m_gm = std::make_unique<ascendopt_twin::GmSpace>(64u << 20);
        ascendopt_twin::CoreIdentity who;
        who.kind = kind;
        m_core = std::make_unique<ascendopt_twin::CoreScope>(ascendopt_twin::testing::test_soc(), 0, 1, 0, m_gm.get(), nullptr,
                                                             ascendopt_twin::LaunchOptions{}, who);
    }
    // `n` elements at byte `offset` of memory `m`.
    template <class T>
    LocalTensor<T> local(Mem m, uint32_t n, uint32_t offset = 0) {
        return LocalTensor<T>(reinterpret_cast<T*>(ascendopt_twin::mem_base(m) + offset), n);
    }
    template <class T>
    GlobalTensor<T> gm(uint64_t n, T** host) {
        uint8_t* dev = m_gm->add("buf" + std::to_string(m_next++), n * sizeof(T));
        *host = reinterpret_cast<T*>(m_gm->host(dev));
        GlobalTensor<T> g;
        g.SetGlobalBuffer(reinterpret_cast<T*>(dev), n);
        return g;
    }

    std::unique_ptr<ascendopt_twin::GmSpace> m_gm;
    std::unique_ptr<ascendopt_twin::CoreScope> m_core;
    int m_next = 0;
};

using ascendopt_twin::cube::nz;
using ascendopt_twin::cube::zn;
using ascendopt_twin::cube::zz;

std::vector<float> random_values(size_t n, unsigned seed, float lo = -2, float hi = 2) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> d(lo, hi);
    std::vector<float> v(n);
    for (auto& x : v) x = d(rng);
    return v;
}

uint64_t quant_word(float scale, int offset = 0, bool sign = true) {
    uint32_t bits;
    std::memcpy(&bits, &scale, 4);
    return uint64_t(bits) | (uint64_t(uint32_t(offset) & 0x1FF) << 37) | (uint64_t(sign) << 46);
}

}  // namespace

// ND (GM) -> NZ (L1), as the documentation's conversion formula: a 20 x 28 half matrix becomes
// two 32-row Z columns of 16; the part of the last block past column 28 is zeros, rows past 20
// are not written.
TEST_F(CubeTest, Nd2NzMatchesTheDocumentedConversion) {
    half* host = nullptr;
    auto src = gm<half>(20 * 28, &host);
    for (int i = 0; i < 20 * 28; ++i) host[i] = half(float(i));
    auto l1 = local<half>(Mem::L1, 2 * 32 * 16);
    for (int i = 0; i < 2 * 32 * 16; ++i) l1.data()[i] = half(-1.0f);
    Nd2NzParams p(1, 20, 28, 0, 28, 32, 1, 0);
    DataCopy(l1, src, p);
    for (int r = 0; r < 32; ++r)
        for (int c = 0; c < 32; ++c) {
            const float got = float(l1.data()[(c / 16) * 32 * 16 + r * 16 + c % 16]);
            const float want = r >= 20 ? -1.0f : c >= 28 ? 0.0f : float(r * 28 + c);
            ASSERT_EQ(got, want) << r << "," << c;
        }
}

// Several ND matrices with source and destination strides, int8 (C0 = 32).
TEST_F(CubeTest, Nd2NzSeveralMatricesWithStrides) {
    int8_t* host = nullptr;
    auto src = gm<int8_t>(2 * 8 * 40, &host);
    for (int i = 0; i < 2 * 8 * 40; ++i) host[i] = int8_t(i % 101);
    auto l1 = local<int8_t>(Mem::L1, 4096);
    // 2 matrices of 8 x 40 from rows of 40; Z columns 16 blocks apart, rows 1 block apart, the
    // second matrix 2048 elements after the first.
    DataCopy(l1, src, Nd2NzParams(2, 8, 40, 320, 40, 16, 1, 2048));
    for (int m = 0; m < 2; ++m)
        for (int r = 0; r < 8; ++r)
            for (int c = 0; c < 64; ++c) {
                const int8_t got = l1.data()[m * 2048 + (c / 32) * 16 * 32 + r * 32 + c % 32];
                const int8_t want = c >= 40 ? 0 : int8_t((m * 320 + r * 40 + c) % 101);
                ASSERT_EQ(got, want) << m << "," << r << "," << c;
            }
}

// LoadData without transpose takes A from NZ (L1) to Zz (L0A), as the documentation's example
// does (one call per 16-row band); with transpose it takes B from NZ to Zn (L0B).
TEST_F(CubeTest, LoadDataMakesZzAndTransposedZn) {
    const int m = 32, k = 48, n = 32;
    half* ha = nullptr;
    half* hb = nullptr;
    auto ga = gm<half>(m * k, &ha);
    auto gb = gm<half>(k * n, &hb);
    for (int i = 0; i < m * k; ++i) ha[i] = half(float(i % 251));
    for (int i = 0; i < k * n; ++i) hb[i] = half(float(i % 241) + 0.5f);
    auto a1 = local<half>(Mem::L1, m * k);
    auto b1 = local<half>(Mem::L1, k * n, 65536);
    DataCopy(a1, ga, Nd2NzParams(1, m, k, 0, k, m, 1, 0));
    DataCopy(b1, gb, Nd2NzParams(1, k, n, 0, n, k, 1, 0));
    auto a2 = local<half>(Mem::L0A, m * k);
    auto b2 = local<half>(Mem::L0B, k * n);
    for (int mb = 0; mb < m / 16; ++mb)
        LoadData(a2[mb * (k / 16) * 256], a1[mb * 256], LoadData2DParams(0, uint8_t(k / 16), uint16_t(m / 16), 0, 0, false, 0));
    // B: for each K band, the N fractals of that band (Nz: an N column is k rows), transposed.
    for (int kb = 0; kb < k / 16; ++kb)
        LoadData(b2[kb * (n / 16) * 256], b1[kb * 256], LoadData2DParams(0, uint8_t(n / 16), uint16_t(k / 16), 0, 0, true, 0));
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < k; ++j) ASSERT_EQ(float(a2.data()[zz(i, j, 16, k / 16)]), float(ha[i * k + j])) << i << "," << j;
    for (int i = 0; i < k; ++i)
        for (int j = 0; j < n; ++j) ASSERT_EQ(float(b2.data()[zn(i, j, 16, n / 16)]), float(hb[i * n + j])) << i << "," << j;
}

// startIndex, srcStride, dstGap and the decreasing address mode move whole 512-byte fractals.
TEST_F(CubeTest, LoadDataStridesAndGapsMoveWholeFractals) {
    auto l1 = local<float>(Mem::L1, 8 * 128);
    for (int i = 0; i < 8 * 128; ++i) l1.data()[i] = float(i);
    auto l0a = local<float>(Mem::L0A, 8 * 128);
    for (int i = 0; i < 8 * 128; ++i) l0a.data()[i] = -1;
    LoadData(l0a, l1, LoadData2DParams(1, 3, 2, 0, 1, false, 0));  // fractals 1, 3, 5 -> 0, 2, 4
    for (int f = 0; f < 6; ++f)
        for (int e = 0; e < 128; ++e)
            ASSERT_EQ(l0a.data()[f * 128 + e], f % 2 ? -1.0f : float((1 + f) * 128 + e)) << f << "," << e;
    LoadData(l0a, l1, LoadData2DParams(6, 2, 3, 0, 0, false, 1));  // fractals 6, 3 -> 0, 1
    EXPECT_EQ(l0a.data()[0], 6 * 128.0f);
    EXPECT_EQ(l0a.data()[128], 3 * 128.0f);
    EXPECT_TWIN_ERROR(LoadData(l0a, l1, LoadData2DParams(0, 1, 0, 0, 0, true, 0)), ErrorKind::run_failed, "ifTranspose is documented for b16");
}

// LoadDataWithTranspose: b16 squares are 16x16; b32 squares are two 16x8 fractals side by side
// whose transpose is written as two 16x8 fractals (dstFracGap apart); b8 squares are 32x32.
TEST_F(CubeTest, LoadDataWithTransposeTransposesSquares) {
    auto s16 = local<half>(Mem::L1, 256);
    for (int i = 0; i < 256; ++i) s16.data()[i] = half(float(i));
    auto d16 = local<half>(Mem::L0B, 256);
    LoadDataWithTranspose(d16, s16, LoadData2dTransposeParams(0, 1, 0, 0, 0, 0));
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 16; ++c) ASSERT_EQ(float(d16.data()[r * 16 + c]), float(c * 16 + r));

    auto s32 = local<float>(Mem::L1, 256, 4096);
    for (int i = 0; i < 256; ++i) s32.data()[i] = float(i);
    auto d32 = local<float>(Mem::L0A, 3 * 128);
    LoadDataWithTranspose(d32, s32, LoadData2dTransposeParams(0, 1, 0, 0, 1, 0));  // fractals 0 and 2
    auto square = [&](int r, int c) { return s32.data()[(c / 8) * 128 + r * 8 + c % 8]; };
    for (int f = 0; f < 2; ++f)
        for (int r = 0; r < 16; ++r)
            for (int c = 0; c < 8; ++c) ASSERT_EQ(d32.data()[f * 2 * 128 + r * 8 + c], square(8 * f + c, r)) << f << r << c;

    auto s8 = local<int8_t>(Mem::L1, 1024, 8192);
    for (int i = 0; i < 1024; ++i) s8.data()[i] = int8_t(i * 7);
    auto d8 = local<int8_t>(Mem::L0B, 1024, 4096);
    LoadDataWithTranspose(d8, s8, LoadData2dTransposeParams(0, 1, 0, 0, 0, 0));
    for (int r = 0; r < 32; ++r)
        for (int c = 0; c < 32; ++c) ASSERT_EQ(d8.data()[r * 32 + c], s8.data()[c * 32 + r]) << r << "," << c;
}

namespace {

// Writes A (m x k) into L0A (Zz) and B (k x n) into L0B (Zn) as the cube reads them.
template <class T>
void place(T* a2, T* b2, const std::vector<float>& A, const std::vector<float>& B, int m, int k, int n) {
    constexpr int kc = 32 / sizeof(T);
    const int k1 = (k + kc - 1) / kc, n1 = (n + 15) / 16;
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < k; ++j) a2[m == 1 ? j : zz(i, j, kc, k1)] = static_cast<T>(A[i * k + j]);
    for (int i = 0; i < k; ++i)
        for (int j = 0; j < n; ++j) b2[zn(i, j, kc, n1)] = static_cast<T>(B[i * n + j]);
}

}  // namespace

// fp16 in, fp32 out, on a ragged shape (the documentation's M=30, K=70, N=40): zero, bias and
// accumulate initial values; the sum is exact then rounded once, so it matches a double reference
// rounded to float.
TEST_F(CubeTest, MmadHalfZeroBiasAndAccumulate) {
    const int m = 30, k = 70, n = 40;
    auto A = random_values(m * k, 1), B = random_values(k * n, 2), bias = random_values(n, 3);
    for (auto& x : A) x = float(half(x));
    for (auto& x : B) x = float(half(x));
    auto a2 = local<half>(Mem::L0A, 2 * 5 * 256);
    auto b2 = local<half>(Mem::L0B, 5 * 3 * 256);
    auto c1 = local<float>(Mem::L0C, 3 * 2 * 256);
    auto bt = local<float>(Mem::BT, 64);
    place(a2.data(), b2.data(), A, B, m, k, n);
    for (int j = 0; j < n; ++j) bt.data()[j] = bias[j];
    auto reference = [&](int i, int j, double init) {
        double s = init;
        for (int x = 0; x < k; ++x) s += double(A[i * k + x]) * double(B[x * n + j]);
        return float(s);
    };
    MmadParams p;
    p.m = m;
    p.n = n;
    p.k = k;
    Mmad(c1, a2, b2, p);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) ASSERT_EQ(c1.data()[nz(i, j, 2)], reference(i, j, 0)) << i << "," << j;
    Mmad(c1, a2, b2, bt, p);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) ASSERT_EQ(c1.data()[nz(i, j, 2)], reference(i, j, bias[j])) << i << "," << j;
    std::vector<float> before(c1.data(), c1.data() + 3 * 2 * 256);
    p.cmatrixInitVal = false;  // accumulate
    Mmad(c1, a2, b2, p);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) ASSERT_EQ(c1.data()[nz(i, j, 2)], reference(i, j, double(before[nz(i, j, 2)]))) << i << "," << j;
    p.cmatrixSource = true;  // from the bias table at BT offset 0
    Mmad(c1, a2, b2, p);
    EXPECT_EQ(c1.data()[nz(5, 7, 2)], reference(5, 7, bias[7]));
}

// int8 in, int32 out (C0 = 32): exact integer sums, with an int32 bias.
TEST_F(CubeTest, MmadInt8AccumulatesInInt32) {
    const int m = 17, k = 90, n = 20;
    std::vector<float> A(m * k), B(k * n);
    std::mt19937 rng(5);
    for (auto& x : A) x = float(int(rng() % 255) - 127);
    for (auto& x : B) x = float(int(rng() % 255) - 127);
    auto a2 = local<int8_t>(Mem::L0A, 2 * 3 * 512);
    auto b2 = local<int8_t>(Mem::L0B, 3 * 2 * 512);
    auto c1 = local<int32_t>(Mem::L0C, 2 * 2 * 256);
    auto bt = local<int32_t>(Mem::BT, 32);
    place(a2.data(), b2.data(), A, B, m, k, n);
    for (int j = 0; j < n; ++j) bt.data()[j] = 1000 * j - 7;
    Mmad(c1, a2, b2, bt, MmadParams(uint16_t(m), uint16_t(n), uint16_t(k), 0, false, true));
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            int32_t s = 1000 * j - 7;
            for (int x = 0; x < k; ++x) s += int32_t(A[i * k + x]) * int32_t(B[x * n + j]);
            ASSERT_EQ(c1.data()[nz(i, j, 2)], s) << i << "," << j;
        }
}

// bfloat16, float (with and without HF32: 11 mantissa bits), and GEMV (m = 1 reads A as a row).
TEST_F(CubeTest, MmadBf16Fp32Hf32AndGemv) {
    const int m = 16, k = 24, n = 16;
    auto A = random_values(m * k, 7), B = random_values(k * n, 8);
    auto a2 = local<float>(Mem::L0A, 3 * 128 * 2);
    auto b2 = local<float>(Mem::L0B, 3 * 128 * 2);
    auto c1 = local<float>(Mem::L0C, 256);
    place(a2.data(), b2.data(), A, B, m, k, n);
    MmadParams p(uint16_t(m), uint16_t(n), uint16_t(k), 0, false, true);
    Mmad(c1, a2, b2, p);
    auto ref = [&](auto round) {
        double s = 0;
        for (int x = 0; x < k; ++x) s += double(round(A[3 * k + x])) * double(round(B[x * n + 5]));
        return float(s);
    };
    EXPECT_EQ(c1.data()[nz(3, 5, 1)], ref([](float v) { return v; }));
    SetHF32Mode(true);
    Mmad(c1, a2, b2, p);
    SetHF32Mode(false);
    const float hf32 = ref([](float v) { return ascendopt_twin::cube::to_hf32(v, false); });
    EXPECT_EQ(c1.data()[nz(3, 5, 1)], hf32);
    EXPECT_NE(hf32, ref([](float v) { return v; }));
    EXPECT_EQ(ascendopt_twin::cube::to_hf32(1.0f + 0x1p-12f, false), 1.0f);  // ties to even
    EXPECT_EQ(ascendopt_twin::cube::to_hf32(1.0f + 0x1p-11f + 0x1p-12f, false), 1.0f + 0x1p-10f);

    auto a16 = local<bfloat16_t>(Mem::L0A, 2 * 256, 16384);
    auto b16 = local<bfloat16_t>(Mem::L0B, 2 * 256, 16384);
    place(a16.data(), b16.data(), A, B, m, k, n);
    Mmad(c1, a16, b16, p);
    double s = 0;
    for (int x = 0; x < k; ++x) s += double(float(bfloat16_t(A[2 * k + x]))) * double(float(bfloat16_t(B[x * n + 9])));
    EXPECT_EQ(c1.data()[nz(2, 9, 1)], float(s));

    auto row = local<half>(Mem::L0A, 256, 32768);  // GEMV: A is 1 x K, K elements in a row
    auto bh = local<half>(Mem::L0B, 2 * 256, 32768);
    place(row.data(), bh.data(), std::vector<float>(A.begin(), A.begin() + k), B, 1, k, n);
    Mmad(c1, row, bh, MmadParams(1, uint16_t(n), uint16_t(k), 0, false, true));
    double g = 0;
    for (int x = 0; x < k; ++x) g += double(float(half(A[x]))) * double(float(half(B[x * n + 4])));
    EXPECT_EQ(c1.data()[nz(0, 4, 1)], float(g));
}

namespace {

// A 32 x 48 float or int32 C in L0C (Nz, m1 = 2, a Z column every 32 rows).
template <class T>
LocalTensor<T> fill_c(CubeTest* t, LocalTensor<T> c, const std::vector<double>& C) {
    for (int i = 0; i < 32; ++i)
        for (int j = 0; j < 48; ++j) c.data()[nz(i, j, 2)] = static_cast<T>(C[i * 48 + j]);
    (void)t;
    return c;
}

}  // namespace

// NZ -> ND to GM (the default CFG_ROW_MAJOR), two ND matrices, rows dstStride apart.
TEST_F(CubeTest, FixpipeNz2NdTwoMatrices) {
    auto c1 = local<float>(Mem::L0C, 2 * 3 * 256 * 2);
    for (int i = 0; i < 2 * 3 * 256 * 2; ++i) c1.data()[i] = float(i);
    float* host = nullptr;
    auto out = gm<float>(2 * 1600, &host);
    FixpipeParamsV220 p;
    p.nSize = 40;
    p.mSize = 30;
    p.srcStride = 32;
    p.dstStride = 50;
    p.ndNum = 2;
    p.srcNdStride = 6;  // 6 fractals of 256 elements
    p.dstNdStride = 1600;
    Fixpipe(out, c1, p);
    for (int d = 0; d < 2; ++d)
        for (int r = 0; r < 30; ++r)
            for (int c = 0; c < 40; ++c)
                ASSERT_EQ(host[d * 1600 + r * 50 + c], c1.data()[d * 6 * 256 + (c / 16) * 32 * 16 + r * 16 + c % 16]) << d << r << c;
}

// NZ -> NZ (CFG_NZ): Z columns dstStride 32-byte blocks apart, F322F16 and F322BF16 casts with
// ReLU, and float channel split into 16 x 8 fractals.
TEST_F(CubeTest, FixpipeNz2NzCastsReluAndChannelSplit) {
    std::vector<double> C(32 * 48);
    for (int i = 0; i < 32 * 48; ++i) C[i] = (i % 7 - 3) * 1.37 + i * 0.001;
    auto c1 = fill_c(this, local<float>(Mem::L0C, 3 * 2 * 256), C);
    half* hh = nullptr;
    auto oh = gm<half>(3 * 40 * 16, &hh);
    FixpipeParamsV220 p(48, 32, 32, 40, true);  // dstStride 40 blocks of 32 bytes = 640 halves
    p.quantPre = QuantMode_t::F322F16;
    Fixpipe<half, float, CFG_NZ>(oh, c1, p);
    for (int i = 0; i < 32; ++i)
        for (int j = 0; j < 48; ++j)
            ASSERT_EQ(float(hh[(j / 16) * 640 + i * 16 + j % 16]), float(half(std::max(0.0f, float(C[i * 48 + j]))))) << i << "," << j;
    bfloat16_t* hb = nullptr;
    auto ob = gm<bfloat16_t>(3 * 32 * 16, &hb);
    p.quantPre = QuantMode_t::F322BF16;
    p.reluEn = false;
    p.dstStride = 32;
    Fixpipe<bfloat16_t, float, CFG_NZ>(ob, c1, p);
    EXPECT_EQ(float(hb[1 * 512 + 5 * 16 + 3]), float(bfloat16_t(float(C[5 * 48 + 19]))));
    float* hf = nullptr;
    auto of = gm<float>(6 * 32 * 8, &hf);
    FixpipeParamsV220 s(48, 32, 32, 32, false);  // 16 x 8 float fractals, 32 blocks (1024 bytes) apart
    s.isChannelSplit = true;
    Fixpipe<float, float, CFG_NZ>(of, c1, s);
    for (int i = 0; i < 32; ++i)
        for (int j = 0; j < 48; ++j) ASSERT_EQ(hf[(j / 8) * 256 + i * 8 + j % 8], float(C[i * 48 + j])) << i << "," << j;
}

// The quantizing modes from int32: DEQF16 (scalar), VDEQF16 (per column, table in L1), REQ8 with
// offset into int8 and uint8, and ReLU scaling negatives by 0; the scale keeps 10 mantissa bits.
TEST_F(CubeTest, FixpipeQuantModesFromInt32) {
    std::vector<double> C(32 * 48);
    for (int i = 0; i < 32 * 48; ++i) C[i] = (i * 37) % 2001 - 1000;
    auto c1 = fill_c(this, local<int32_t>(Mem::L0C, 3 * 2 * 256), C);
    half* hh = nullptr;
    auto oh = gm<half>(32 * 48, &hh);
    FixpipeParamsV220 p(48, 32, 32, 48, false);
    p.quantPre = QuantMode_t::DEQF16;
    const float scale = 0.0123456789f;
    p.deqScalar = quant_word(scale);
    Fixpipe(oh, c1, p);
    uint32_t bits;
    std::memcpy(&bits, &scale, 4);
    bits &= 0xFFFFE000u;
    float kept;
    std::memcpy(&kept, &bits, 4);
    for (int i = 0; i < 32 * 48; ++i) ASSERT_EQ(float(hh[i]), float(half(float(float(C[i]) * kept)))) << i;

    auto table = local<uint64_t>(Mem::L1, 48);
    for (int j = 0; j < 48; ++j) table.data()[j] = quant_word(float(j + 1) * 0.25f);
    p.quantPre = QuantMode_t::VDEQF16;
    p.reluEn = true;
    Fixpipe(oh, c1, table, p);
    for (int i = 0; i < 32; ++i)
        for (int j = 0; j < 48; ++j) {
            const double v = C[i * 48 + j];
            ASSERT_EQ(float(hh[i * 48 + j]), float(half(float(v < 0 ? 0.0 : v * (j + 1) * 0.25)))) << i << "," << j;
        }

    int8_t* h8 = nullptr;
    auto o8 = gm<int8_t>(32 * 48, &h8);
    p.quantPre = QuantMode_t::REQ8;
    p.reluEn = false;
    p.deqScalar = quant_word(0.2f, -5, true);
    Fixpipe(o8, c1, p);
    auto req8 = [&](double v, float s, int off, bool sign) {
        const double x = double(float(float(v) * s));
        const double q = std::min(255.0, std::max(-256.0, std::nearbyint(x))) + off;
        return sign ? std::min(127.0, std::max(-128.0, q)) : std::min(255.0, std::max(0.0, q));
    };
    uint32_t sb;
    const float s02 = 0.2f;
    std::memcpy(&sb, &s02, 4);
    sb &= 0xFFFFE000u;
    float s02k;
    std::memcpy(&s02k, &sb, 4);
    for (int i = 0; i < 32 * 48; ++i) ASSERT_EQ(double(h8[i]), req8(C[i], s02k, -5, true)) << i;
    uint8_t* hu = nullptr;
    auto ou = gm<uint8_t>(32 * 48, &hu);
    p.deqScalar = quant_word(0.2f, 100, false);
    Fixpipe(ou, c1, p);
    for (int i = 0; i < 32 * 48; ++i) ASSERT_EQ(double(hu[i]), req8(C[i], s02k, 100, false)) << i;
    EXPECT_TWIN_ERROR(Fixpipe(oh, c1, FixpipeParamsV220(48, 32, 32, 48, false)), ErrorKind::run_failed, "quantPre NoQuant");
}

// QF322B8_PRE from float, and NZ int8 output: two 16-column blocks merge into a 16 x 32 fractal.
TEST_F(CubeTest, FixpipeFloatToInt8MergesChannels) {
    std::vector<double> C(32 * 48);
    for (int i = 0; i < 32 * 48; ++i) C[i] = std::sin(i) * 300;
    auto c1 = fill_c(this, local<float>(Mem::L0C, 3 * 2 * 256), C);
    int8_t* h = nullptr;
    auto o = gm<int8_t>(4096, &h);
    FixpipeParamsV220 p(48, 32, 32, 64, false);  // Z columns 64 blocks (2048 bytes) apart
    p.quantPre = QuantMode_t::QF322B8_PRE;
    p.deqScalar = quant_word(0.5f);
    Fixpipe<int8_t, float, CFG_NZ>(o, c1, p);
    for (int i = 0; i < 32; ++i)
        for (int j = 0; j < 48; ++j) {
            const double q = std::min(127.0, std::max(-128.0, std::min(255.0, std::max(-256.0, std::nearbyint(double(float(C[i * 48 + j]) * 0.5f))))));
            const int at = j < 32 ? i * 32 + j : 2048 + i * 16 + (j - 32);  // the last, odd block stays 16 wide
            ASSERT_EQ(double(h[at]), q) << i << "," << j;
        }
}

// DataCopy from CO1 takes the NZ -> ND geometry and the scalar word from the registers.
TEST_F(CubeTest, DataCopyFromCo1UsesTheFixpipeRegisters) {
    std::vector<double> C(32 * 48);
    for (int i = 0; i < 32 * 48; ++i) C[i] = i - 700;
    auto c1 = fill_c(this, local<int32_t>(Mem::L0C, 3 * 2 * 256), C);
    half* h = nullptr;
    auto o = gm<half>(32 * 48, &h);
    SetFixpipeNz2ndFlag(1, 0, 0);
    SetFixpipePreQuantFlag(quant_word(2.0f));
    DataCopy(o, c1, DataCopyCO12DstParams(48, 32, 48, 32, QuantMode_t::DEQF16, 1, false, true));
    for (int i = 0; i < 32 * 48; ++i) ASSERT_EQ(float(h[i]), C[i] < 0 ? 0.0f : float(C[i] * 2)) << i;
}

// Queues and buffers go to the memory their TPosition names; InitConstValue fills L1 and L0.
TEST_F(CubeTest, QueuesLiveInTheMemoryOfTheirPosition) {
    TPipe pipe;
    TQue<TPosition::A1, 2> a1;
    TQue<TPosition::A2, 1> a2;
    TQue<TPosition::B2, 1> b2;
    TQue<TPosition::CO1, 1> co1;
    TQue<TPosition::C2, 1> c2;
    TBuf<TPosition::C2PIPE2GM> fb;
    pipe.InitBuffer(a1, 2, 4096);
    pipe.InitBuffer(a2, 1, 2048);
    pipe.InitBuffer(b2, 1, 2048);
    pipe.InitBuffer(co1, 1, 4096);
    pipe.InitBuffer(c2, 1, 256);
    pipe.InitBuffer(fb, 512);
    auto in = [](const void* p, Mem m) {
        Mem got;
        uint64_t off;
        return ascendopt_twin::mem_of(p, got, off) && got == m;
    };
    auto x = a1.AllocTensor<half>();
    auto y = a1.AllocTensor<half>();
    EXPECT_TRUE(in(x.data(), Mem::L1));
    EXPECT_EQ(reinterpret_cast<uint8_t*>(y.data()) - reinterpret_cast<uint8_t*>(x.data()), 4096);
    EXPECT_TRUE(in(a2.AllocTensor<half>().data(), Mem::L0A));
    EXPECT_TRUE(in(b2.AllocTensor<half>().data(), Mem::L0B));
    EXPECT_TRUE(in(co1.AllocTensor<float>().data(), Mem::L0C));
    EXPECT_TRUE(in(c2.AllocTensor<float>().data(), Mem::BT));
    EXPECT_TRUE(in(fb.Get<uint64_t>().data(), Mem::FB));
    EXPECT_EQ(pipe.used_bytes(Mem::L1), 8192u);
    EXPECT_EQ(pipe.used_bytes(Mem::UB), 0u);

    InitConstValue(x, InitConstValueParams<half>(2, 3, 1, half(2.5f)));  // 2 x 3 blocks of 32 bytes, 1 block apart
    for (int i = 0; i < 8 * 16; ++i) EXPECT_EQ(float(x.data()[i]), (i / 16) % 4 == 3 ? float(x.data()[i]) : 2.5f) << i;
    auto l0 = local<float>(Mem::L0A, 512, 4096);
    InitConstValue(l0, {1, 2, 0, 0.0f});
    for (int i = 0; i < 256; ++i) ASSERT_EQ(l0.data()[i], 0.0f);
}

TEST_F(CubeTest, TBufGetWithOffsetAndTBufPool) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> ub_on_aic;  // allowed to set up; using it on a cube core is the error
    pipe.InitBuffer(ub_on_aic, 1024);
    TBufPool<TPosition::A1> pool, shared;
    pipe.InitBufPool(pool, 8192);
    pipe.InitBufPool(shared, 4096, pool);
    TQue<TPosition::A1, 1> q;
    TBuf<TPosition::B1> b;
    pool.InitBuffer(q, 1, 2048);
    pool.InitBuffer(b, 1024);
    EXPECT_EQ(reinterpret_cast<uint8_t*>(b.Get<half>().data()) - reinterpret_cast<uint8_t*>(q.AllocTensor<half>().data()), 2048);
    TBuf<TPosition::A1> s;
    shared.InitBuffer(s, 64);
    EXPECT_EQ(static_cast<void*>(s.Get<half>().data()), static_cast<void*>(ascendopt_twin::mem_base(Mem::L1)));
    auto t = b.GetWithOffset<float>(16, 64);
    EXPECT_EQ(reinterpret_cast<uint8_t*>(t.data()) - reinterpret_cast<uint8_t*>(b.Get<float>().data()), 64);
    EXPECT_TWIN_ERROR(b.GetWithOffset<float>(8, 48), ErrorKind::run_failed, "not a multiple of 32");
    EXPECT_TWIN_ERROR(b.GetWithOffset<float>(250, 64), ErrorKind::run_failed, "exceed the buffer's 1024 bytes");
    TQue<TPosition::A2, 1> wrong;
    EXPECT_TWIN_ERROR(pool.InitBuffer(wrong, 1, 512), ErrorKind::run_failed, "cannot come from a pool of L1");
    pipe.Destroy();
    EXPECT_EQ(pipe.used_bytes(Mem::L1), 0u);
}

// L0A is 64 KiB: InitBuffer hands out more without complaint, using it is resource_exceeded and
// names L0A and the buffer.
TEST_F(CubeTest, L0aOverflowFailsWhenUsed) {
    TPipe pipe;
    TQue<TPosition::A2, 2> a2;
    pipe.InitBuffer(a2, 2, 49152);
    auto first = a2.AllocTensor<half>();
    auto second = a2.AllocTensor<half>();
    auto l1 = local<half>(Mem::L1, 40 * 256);
    LoadData(first, l1, LoadData2DParams(0, 40, 1, 0, 0, false, 0));
    EXPECT_TWIN_ERROR(LoadData(second, l1, LoadData2DParams(0, 40, 1, 0, 0, false, 0)), ErrorKind::resource_exceeded,
                      "past the end of the core's 65536-byte L0A");
    EXPECT_TWIN_ERROR(LoadData(second, l1, LoadData2DParams(0, 40, 1, 0, 0, false, 0)), ErrorKind::resource_exceeded, "buffer 2 of 2");
}

TEST_F(CubeTest, MisalignedAndMisplacedOperandsAreErrors) {
    auto l1 = local<half>(Mem::L1, 4096);
    auto l0a = local<half>(Mem::L0A, 4096);
    auto l0b = local<half>(Mem::L0B, 4096);
    auto l0c = local<float>(Mem::L0C, 4096);
    EXPECT_TWIN_ERROR(LoadData(l0a[16], l1, LoadData2DParams(0, 1, 0, 0, 0, false, 0)), ErrorKind::run_failed,
                      "L0A byte 32, which is not a multiple of 512");
    EXPECT_TWIN_ERROR(Mmad(l0c, l0b, l0a, MmadParams(16, 16, 16, 0, false, true)), ErrorKind::run_failed, "fm tensor is in L0B");
    EXPECT_TWIN_ERROR(Mmad(l0c[64], l0a, l0b, MmadParams(16, 16, 16, 0, false, true)), ErrorKind::run_failed, "not a multiple of 1024");
    EXPECT_TWIN_ERROR(Mmad(l0c, l0a, l0b, MmadParams(16, 16, 4096, 0, false, true)), ErrorKind::run_failed, "each must be 0..4095");
    auto i8 = local<int8_t>(Mem::L0A, 4096);
    EXPECT_TWIN_ERROR(Mmad(l0c, i8, l0b, MmadParams(16, 16, 16, 0, false, true)), ErrorKind::run_failed, "unsupported types");
    // A vector API on a cube core, and UB through a copy.
    auto ub = LocalTensor<float>(reinterpret_cast<float*>(ascendopt_twin::ub_base()), 64);
    EXPECT_TWIN_ERROR(Duplicate(ub, 1.0f, 64), ErrorKind::run_failed, "which an AIC core (block 0) does not have");
}

TEST_F(CubeTest, CubeApisOnAVectorCoreAreErrors) {
    make_core(CoreKind::aiv);
    auto ub = LocalTensor<half>(reinterpret_cast<half*>(ascendopt_twin::ub_base()), 512);
    EXPECT_TWIN_ERROR(LoadData(ub, ub, LoadData2DParams(0, 1, 0, 0, 0, false, 0)), ErrorKind::run_failed,
                      "a cube API on an AIV core (block 0)");
    TPipe pipe;
    TQue<TPosition::A2, 1> a2;
    pipe.InitBuffer(a2, 1, 512);  // as on the device, setting up is no error
    auto t = a2.AllocTensor<half>();
    EXPECT_TWIN_ERROR(Duplicate(t, half(1.0f), 256), ErrorKind::run_failed, "L0A, which an AIV core (block 0) does not have");
}

// LoadData with LoadData3DParamsV2: im2col of a padded, strided 3x3 window over a C1HWC0 feature
// map, into L0A (Zz) and, transposed, into L0B (Zn), against a scalar im2col; the window comes
// from SetFmatrix when the config says so.
TEST_F(CubeTest, LoadData3dIsIm2col) {
    const int c1 = 2, h = 5, w = 6, c0 = 16, fh = 3, fw = 3, stride = 2;
    const uint8_t pad[4] = {1, 1, 1, 0};  // left, right, top, bottom
    auto l1 = local<half>(Mem::L1, c1 * h * w * c0);
    for (int i = 0; i < c1 * h * w * c0; ++i) l1.data()[i] = half(float(i % 1000) + 0.5f);
    const int wout = (w + 2 - fw) / stride + 1;  // 3
    auto im2col = [&](int m, int k) {
        const int kb = k / c0, cc = k % c0, ch = kb / (fh * fw), pos = kb % (fh * fw);
        const int hin = (m / wout) * stride + pos / fw - 1, win = (m % wout) * stride + pos % fw - 1;
        if (hin < 0 || hin >= h || win < 0 || win >= w) return -7.0f;
        return float(l1.data()[((ch * h + hin) * w + win) * c0 + cc]);
    };
    LoadData3DParamsV2<half> p;
    std::memcpy(p.padList, pad, 4);
    p.l1H = h;
    p.l1W = w;
    p.channelSize = c1 * c0;
    p.kStartPt = 16;
    p.kExtension = 64;  // columns 16..79
    p.mStartPt = 2;
    p.mExtension = 16;  // rows 2..17
    p.strideH = p.strideW = stride;
    p.filterH = fh;
    p.filterW = fw;
    p.padValue = half(-7.0f);
    auto l0a = local<half>(Mem::L0A, 16 * 64);
    LoadData(l0a, l1, p);
    for (int m = 0; m < 16; ++m)
        for (int k = 0; k < 64; ++k) ASSERT_EQ(float(l0a.data()[zz(m, k, 16, 4)]), im2col(2 + m, 16 + k)) << m << "," << k;

    static constexpr IsResetLoad3dConfig from_registers = {false, false};
    SetFmatrix(h, w, pad, FmatrixMode::FMATRIX_RIGHT);
    SetLoadDataPaddingValue(half(-7.0f));
    LoadData3DParamsV2<half> q = p;
    q.l1H = q.l1W = 1;  // ignored: the registers describe the map
    q.padValue = half(99.0f);
    auto l0b = local<half>(Mem::L0B, 16 * 64);
    LoadData<half, from_registers>(l0b, l1, q);
    // L0B holds B with the im2col rows as K and its columns as N.
    for (int m = 0; m < 16; ++m)
        for (int k = 0; k < 64; ++k) ASSERT_EQ(float(l0b.data()[zn(m, k, 16, 4)]), im2col(2 + m, 16 + k)) << m << "," << k;
}

// Fixpipe's GM writes take the core's atomic mode: with SetAtomicAdd<float> a second Fixpipe
// adds to what the first wrote; the elements between rows stay as they were.
TEST_F(CubeTest, FixpipeAccumulatesUnderSetAtomicAdd) {
    auto c1 = local<float>(Mem::L0C, 256);
    for (int i = 0; i < 256; ++i) c1.data()[i] = float(i);
    float* host = nullptr;
    auto out = gm<float>(16 * 20, &host);
    for (int i = 0; i < 16 * 20; ++i) host[i] = -1.0f;
    FixpipeParamsV220 p(16, 16, 16, 20, false);  // rows of 16 in rows of 20
    Fixpipe(out, c1, p);
    SetAtomicAdd<float>();
    Fixpipe(out, c1, p);
    SetAtomicNone();
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 20; ++c) ASSERT_EQ(host[r * 20 + c], c < 16 ? 2.0f * float(r * 16 + c) : -1.0f) << r << "," << c;
}

// --- address space of a full mixed launch ------------------------------------------------------

namespace {

// Every core writes the first and last byte of each memory it has, and one flag per core in GM.
extern "C" void touch_memories_kernel(GM_ADDR flags, GM_ADDR /*unused*/) {
    // GetBlockIdx is the block on an AIC and 2 x block + sub-block on an AIV.
    const bool aic = ascendopt_twin::core_kind() == CoreKind::aic;
    const int64_t core = aic ? GetBlockIdx() * 3 : GetBlockIdx() / 2 * 3 + 1 + GetBlockIdx() % 2;
    for (size_t m = 0; m < size_t(Mem::count); ++m) {
        const uint32_t size = ascendopt_twin::mem_size(Mem(m));
        if (size == 0) continue;
        volatile uint8_t* base = ascendopt_twin::mem_base(Mem(m));
        base[0] = 1;
        base[size - 1] = 2;
    }
    reinterpret_cast<volatile uint8_t*>(flags)[core] = 1;
}

}  // namespace

// A case runs under RLIMIT_AS (8 GiB), which counts address space reserved PROT_NONE: 24 blocks
// of a 1:2 mixed launch are 72 cores at once, which must fit with room for their stacks and
// malloc arenas. (Seven 16 MiB windows per core did not: 7.9 GiB.) Run in a child process,
// since the limit would otherwise hold for the rest of the tests.
namespace {

[[noreturn]] void launch_24_mixed_blocks_under_the_case_limit() {
    rlimit r{8ull << 30, 8ull << 30};
    setrlimit(RLIMIT_AS, &r);
    ascendopt_twin::GmSpace gm(64u << 20);
    std::vector<uint8_t*> args{gm.add("flags", 72), gm.add("unused", 32)};
    ascendopt_twin::LaunchOptions options;
    options.kernel_type = ascendopt_twin::KernelType::mix_aic_1_2;
    try {
        ascendopt_twin::launch(ascendopt_twin::testing::test_soc(), reinterpret_cast<void*>(&touch_memories_kernel), args, 24, 0, gm,
                               options);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "launch failed: %s\n", e.what());
        std::_Exit(1);
    }
    const uint8_t* flags = gm.host(args[0]);
    for (int i = 0; i < 72; ++i)
        if (flags[i] != 1) std::_Exit(2);
    std::_Exit(0);
}

}  // namespace

TEST(CoreMemoryWindows, A24BlockMixedLaunchFitsTheCaseAddressSpace) {
#ifdef ASCENDOPT_TESTS_LINK_ASAN
    GTEST_SKIP() << "AddressSanitizer's shadow memory cannot live under an 8 GiB RLIMIT_AS; the plain build runs this";
#endif
    EXPECT_EXIT(launch_24_mixed_blocks_under_the_case_limit(), ::testing::ExitedWithCode(0), "");
}

// The memories a core lacks still fault when used, and the report names the memory.
TEST(CoreMemoryWindows, MissingMemoriesAreReportedByName) {
    ascendopt_twin::GmSpace gm(1u << 20);
    ascendopt_twin::CoreIdentity who;
    who.kind = CoreKind::aic;
    {
        ascendopt_twin::CoreScope core(ascendopt_twin::testing::test_soc(), 0, 1, 0, &gm, nullptr, ascendopt_twin::LaunchOptions{}, who);
        const auto report = ascendopt_twin::ub_fault_report(reinterpret_cast<uint64_t>(ascendopt_twin::ub_base()) + 64);
        ASSERT_TRUE(report.has_value());
        EXPECT_NE(report->find("UB byte 64 is in UB, which an AIC core"), std::string::npos) << *report;
        EXPECT_NE(ascendopt_twin::mem_base(Mem::L1), ascendopt_twin::mem_base(Mem::L0A));
    }
    who.kind = CoreKind::aiv;
    ascendopt_twin::CoreScope core(ascendopt_twin::testing::test_soc(), 0, 1, 0, &gm, nullptr, ascendopt_twin::LaunchOptions{}, who);
    const auto report = ascendopt_twin::ub_fault_report(reinterpret_cast<uint64_t>(ascendopt_twin::mem_base(Mem::L0C)) + 32);
    ASSERT_TRUE(report.has_value());
    EXPECT_NE(report->find("L0C byte 32 is in L0C, which an AIV core"), std::string::npos) << *report;
}
