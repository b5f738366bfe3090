// The high-level Matmul API against scalar references: in place on an AIC (half with tails and
// bias, float with both operands transposed, int8 -> int32, Iterate + GetTensorC against
// IterateAll, both iteration orders, blocks of one row over all of K, quantized outputs), as the
// AIC's service for the AIVs of a mixed launch (Iterate + GetTensorC into UB, IterateAll into
// GM, the work charged to the AIC's cube pipes, objects sharing the AIC's L0), the asynchronous
// Iterate<false> into a workspace, the error without an AIC, the host tiling's validity over a
// sweep of shapes, and the AOE tuning registries host code of the cube tilings declares into.
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "lib/matmul_intf.h"
#include "tiling/tiling_api.h"
#include "twin_fixture.h"

using namespace AscendC;
using ascendopt_twin::CoreKind;

namespace {

class MatmulTest : public ::testing::Test {
protected:
    void SetUp() override {
        m_gm = std::make_unique<ascendopt_twin::GmSpace>(64u << 20);
        ascendopt_twin::CoreIdentity who;
        who.kind = CoreKind::aic;
        m_core = std::make_unique<ascendopt_twin::CoreScope>(ascendopt_twin::testing::test_soc(), 0, 1, 0, m_gm.get(), nullptr,
                                                             ascendopt_twin::LaunchOptions{}, who);
    }
    void TearDown() override {
        m_core.reset();
        m_gm.reset();
    }
    template <class T>
    GlobalTensor<T> gm(const std::vector<T>& values, T** host = nullptr) {
        uint8_t* dev = m_gm->add("buf" + std::to_string(m_next++), values.size() * sizeof(T));
        T* h = reinterpret_cast<T*>(m_gm->host(dev));
        for (size_t i = 0; i < values.size(); ++i) h[i] = values[i];
        if (host) *host = h;
        GlobalTensor<T> g;
        g.SetGlobalBuffer(reinterpret_cast<T*>(dev), values.size());
        return g;
    }

    std::unique_ptr<ascendopt_twin::GmSpace> m_gm;
    std::unique_ptr<ascendopt_twin::CoreScope> m_core;
    int m_next = 0;
};

template <class T>
std::vector<T> random_values(size_t n, unsigned seed, float lo = -2, float hi = 2) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> d(lo, hi);
    std::vector<T> v(n);
    for (auto& x : v) x = T(d(rng));
    return v;
}

// C = op(A) x op(B) (+ bias), in double; A stored [M, K] (or [K, M] when transA), B [K, N] (or [N, K]).
template <class T, class TBias>
std::vector<double> reference(const std::vector<T>& a, const std::vector<T>& b, const std::vector<TBias>* bias, int M, int N, int K,
                              bool transA, bool transB) {
    std::vector<double> c(size_t(M) * N);
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            double s = bias ? double(float((*bias)[j])) : 0.0;
            for (int k = 0; k < K; ++k)
                s += double(float(transA ? a[size_t(k) * M + i] : a[size_t(i) * K + k])) *
                     double(float(transB ? b[size_t(j) * K + k] : b[size_t(k) * N + j]));
            c[size_t(i) * N + j] = s;
        }
    return c;
}

// A single-core tiling with fixed base sizes.
TCubeTiling single_core_tiling(int M, int N, int K, int baseM, int baseN, int baseK, bool bias, matmul_tiling::DataType in,
                               matmul_tiling::DataType out) {
    matmul_tiling::MatmulApiTiling t;
    t.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, in);
    t.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, in);
    t.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, out);
    t.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    t.SetShape(M, N, K);
    t.SetOrgShape(M, N, K);
    t.SetBias(bias);
    t.SetFixSplit(baseM, baseN, baseK);
    TCubeTiling tiling;
    EXPECT_EQ(t.GetTiling(tiling), 0);
    return tiling;
}

template <class C>
void expect_close(const C* got, const std::vector<double>& want, double rel, const char* what) {
    for (size_t i = 0; i < want.size(); ++i)
        ASSERT_NEAR(double(got[i]), want[i], rel * std::max(1.0, std::fabs(want[i]))) << what << " element " << i;
}

}  // namespace

// Half inputs with tails in M, N and K (50 x 70 x 45 over 32 x 48 x 32 blocks) and a float bias:
// every block and K slice lands in the right place; sums are float-accurate.
TEST_F(MatmulTest, HalfWithTailsAndBiasIntoGm) {
    const int M = 50, N = 70, K = 45;
    auto a = random_values<half>(size_t(M) * K, 1), b = random_values<half>(size_t(K) * N, 2);
    auto bias = random_values<float>(N, 3);
    float* c = nullptr;
    auto ga = gm(a), gb = gm(b);
    auto gbias = gm(bias), gc = gm(std::vector<float>(size_t(M) * N, -7.0f), &c);
    TCubeTiling tiling = single_core_tiling(M, N, K, 32, 48, 32, true, matmul_tiling::DataType::DT_FLOAT16, matmul_tiling::DataType::DT_FLOAT);
    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>, MatmulType<TPosition::GM, CubeFormat::ND, float>>
        mm;
    mm.Init(&tiling, &pipe);
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    mm.SetBias(gbias);
    mm.IterateAll(gc);
    mm.End();
    expect_close(c, reference(a, b, &bias, M, N, K, false, false), 1e-5, "IterateAll");
}

// SetOrgShape's orgKc: C is the left N columns of rows orgKc elements long; the columns past N
// keep what they held.
TEST_F(MatmulTest, OrgKcIsTheRowLengthOfC) {
    const int M = 20, N = 24, K = 16, ldc = 40;
    auto a = random_values<half>(size_t(M) * K, 4), b = random_values<half>(size_t(K) * N, 5);
    float* c = nullptr;
    auto ga = gm(a), gb = gm(b);
    auto gc = gm(std::vector<float>(size_t(M) * ldc, -7.0f), &c);
    TCubeTiling tiling = single_core_tiling(M, N, K, 16, 16, 16, false, matmul_tiling::DataType::DT_FLOAT16, matmul_tiling::DataType::DT_FLOAT);
    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>>
        mm;
    mm.Init(&tiling, &pipe);
    mm.SetOrgShape(M, N, K, K, ldc);
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    mm.IterateAll(gc);
    mm.End();
    const auto want = reference(a, b, static_cast<const std::vector<float>*>(nullptr), M, N, K, false, false);
    for (int i = 0; i < M; ++i) {
        for (int j = 0; j < N; ++j) ASSERT_NEAR(c[i * ldc + j], want[size_t(i) * N + j], 1e-5 * std::max(1.0, std::fabs(want[size_t(i) * N + j])));
        for (int j = N; j < ldc; ++j) ASSERT_EQ(c[i * ldc + j], -7.0f) << "row " << i << " column " << j;
    }
}

// IterateBatch: three products, matrices stored one after another (strides of 0: one matrix).
TEST_F(MatmulTest, IterateBatchComputesEachBatchInPlace) {
    const int M = 20, N = 24, K = 16, batches = 3;
    auto a = random_values<half>(size_t(batches) * M * K, 6), b = random_values<half>(size_t(batches) * K * N, 7);
    float* c = nullptr;
    auto ga = gm(a), gb = gm(b);
    auto gc = gm(std::vector<float>(size_t(batches) * M * N, -7.0f), &c);
    TCubeTiling tiling = single_core_tiling(M, N, K, 16, 16, 16, false, matmul_tiling::DataType::DT_FLOAT16, matmul_tiling::DataType::DT_FLOAT);
    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>>
        mm;
    mm.Init(&tiling, &pipe);
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    mm.SetBatchNum(batches, batches);
    mm.IterateBatch(gc, false, 0, false);
    mm.End();
    for (int i = 0; i < batches; ++i) {
        std::vector<half> ai(a.begin() + size_t(i) * M * K, a.begin() + size_t(i + 1) * M * K);
        std::vector<half> bi(b.begin() + size_t(i) * K * N, b.begin() + size_t(i + 1) * K * N);
        expect_close(c + size_t(i) * M * N, reference(ai, bi, static_cast<const std::vector<float>*>(nullptr), M, N, K, false, false), 1e-5,
                     "IterateBatch");
    }
    EXPECT_TWIN_ERROR(mm.IterateBatch(gc, true, 0, false), ascendopt_twin::ErrorKind::run_failed, "enPartialSum");
}

// Float inputs, both stored transposed (A as [K, M], B as [N, K]), half output: Iterate +
// GetTensorC at each block's place gives what IterateAll gives, in both iteration orders.
TEST_F(MatmulTest, TransposedFloatIterateMatchesIterateAll) {
    const int M = 40, N = 36, K = 24;
    auto a = random_values<float>(size_t(K) * M, 4), b = random_values<float>(size_t(N) * K, 5);
    half *c1 = nullptr, *c2 = nullptr;
    auto ga = gm(a), gb = gm(b);
    auto gc1 = gm(std::vector<half>(size_t(M) * N, half(0.0f)), &c1), gc2 = gm(std::vector<half>(size_t(M) * N, half(0.0f)), &c2);
    const auto want = reference<float, float>(a, b, nullptr, M, N, K, true, true);
    for (int order = 0; order < 2; ++order) {
        TCubeTiling tiling = single_core_tiling(M, N, K, 16, 16, 16, false, matmul_tiling::DataType::DT_FLOAT, matmul_tiling::DataType::DT_FLOAT16);
        tiling.iterateOrder = order;
        TPipe pipe;
        Matmul<MatmulType<TPosition::GM, CubeFormat::ND, float, true>, MatmulType<TPosition::GM, CubeFormat::ND, float, true>,
               MatmulType<TPosition::GM, CubeFormat::ND, half>>
            mm;
        mm.Init(&tiling, &pipe);
        mm.SetTensorA(ga, true);
        mm.SetTensorB(gb, true);
        mm.IterateAll(gc1);
        int blocks = 0;
        while (mm.Iterate()) {
            mm.GetTensorC(gc2);
            ++blocks;
        }
        EXPECT_EQ(blocks, 3 * 3);
        for (size_t i = 0; i < want.size(); ++i) {
            ASSERT_EQ(c1[i].bits, c2[i].bits) << "order " << order << " element " << i;
            ASSERT_NEAR(float(c1[i]), want[i], 2e-3 * std::max(1.0, std::fabs(want[i]))) << "order " << order << " element " << i;
        }
    }
}

// Blocks of one row (a single-core M of 1 from SetSingleShape, and the 1-row tail block of M =
// 17 over baseM 16) use all of K: the A row is not read as a GEMV vector (an ND A is M padded
// to 16, as documented for M = 1 without CubeFormat::VECTOR). K spans several C0 blocks and
// baseK slices; B is stored [N, K] and read transposed, as inplace_fused_matmul_softmax_grad
// does.
// `make(values, &host)` puts values in GM.
template <class T, class Make>
void single_row_blocks_use_all_of_k(Make make, matmul_tiling::DataType dt, int K, int baseK) {
    const int N = 40;
    for (int M : {1, 17}) {
        auto a = random_values<T>(size_t(M) * K, 11), b = random_values<T>(size_t(N) * K, 12);
        float* c = nullptr;
        T* unused = nullptr;
        auto ga = make(a, &unused), gb = make(b, &unused);
        auto gc = make(std::vector<float>(size_t(M) * N, -7.0f), &c);
        TCubeTiling tiling = single_core_tiling(32, N, K, 16, 16, baseK, false, dt, matmul_tiling::DataType::DT_FLOAT);
        TPipe pipe;
        Matmul<MatmulType<TPosition::GM, CubeFormat::ND, T>, MatmulType<TPosition::GM, CubeFormat::ND, T, true>,
               MatmulType<TPosition::GM, CubeFormat::ND, float>>
            mm;
        mm.Init(&tiling, &pipe);
        mm.SetTensorA(ga);
        mm.SetTensorB(gb, true);
        mm.SetSingleShape(M, N, K);
        mm.IterateAll(gc);
        mm.End();
        expect_close(c, reference(a, b, static_cast<const std::vector<float>*>(nullptr), M, N, K, false, true), 1e-5,
                     M == 1 ? "single-core M of 1" : "1-row tail block");
    }
}

TEST_F(MatmulTest, SingleRowBlocksUseAllOfKFloat) {
    single_row_blocks_use_all_of_k<float>([this](const auto& v, auto** host) { return gm(v, host); }, matmul_tiling::DataType::DT_FLOAT, 40, 16);
}
TEST_F(MatmulTest, SingleRowBlocksUseAllOfKHalf) {
    single_row_blocks_use_all_of_k<half>([this](const auto& v, auto** host) { return gm(v, host); }, matmul_tiling::DataType::DT_FLOAT16, 70, 32);
}

// int8 x int8 -> int32 is exact, with an int32 bias; SetTail shrinks the single-core shape.
TEST_F(MatmulTest, Int8AccumulatesExactlyAndSetTailShrinksTheShape) {
    const int M = 33, N = 40, K = 70;
    std::vector<int8_t> a(size_t(M) * K), b(size_t(K) * N);
    for (size_t i = 0; i < a.size(); ++i) a[i] = int8_t((i * 37 + 11) % 256 - 128);
    for (size_t i = 0; i < b.size(); ++i) b[i] = int8_t((i * 53 + 7) % 256 - 128);
    std::vector<int32_t> bias(N);
    for (int j = 0; j < N; ++j) bias[j] = j * 1000 - 20000;
    int32_t* c = nullptr;
    auto ga = gm(a), gb = gm(b);
    auto gbias = gm(bias), gc = gm(std::vector<int32_t>(size_t(M) * N, -1), &c);
    TCubeTiling tiling = single_core_tiling(M, N, K, 32, 32, 64, true, matmul_tiling::DataType::DT_INT8, matmul_tiling::DataType::DT_INT32);
    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, int8_t>, MatmulType<TPosition::GM, CubeFormat::ND, int8_t>,
           MatmulType<TPosition::GM, CubeFormat::ND, int32_t>, MatmulType<TPosition::GM, CubeFormat::ND, int32_t>>
        mm;
    mm.Init(&tiling, &pipe);
    mm.SetTail(20, 30);  // the top-left 20 x 30 of C
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    mm.SetBias(gbias);
    mm.IterateAll(gc);
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            int64_t s = bias[j];
            for (int k = 0; k < K; ++k) s += int64_t(a[size_t(i) * K + k]) * b[size_t(k) * N + j];
            ASSERT_EQ(c[size_t(i) * N + j], (i < 20 && j < 30) ? int32_t(s) : -1) << i << ", " << j;
        }
}

// Iterate<false>() computes every block into the workspace; each GetTensorC() returns the next
// block (ORDER_M) as bm rows of its own width bn. int8 -> int32 with tails in M and N is exact.
// One call too many, no workspace, or one too small for the single-core C is an error.
TEST_F(MatmulTest, AsynchronousIterateHandsOutEachBlockFromTheWorkspace) {
    const int M = 50, N = 45, K = 70, baseM = 32, baseN = 32;
    std::vector<int8_t> a(size_t(M) * K), b(size_t(K) * N);
    for (size_t i = 0; i < a.size(); ++i) a[i] = int8_t((i * 29 + 5) % 256 - 128);
    for (size_t i = 0; i < b.size(); ++i) b[i] = int8_t((i * 61 + 3) % 256 - 128);
    auto ga = gm(a), gb = gm(b);
    auto ws = gm(std::vector<int32_t>(size_t(M) * N, 0));
    TCubeTiling tiling = single_core_tiling(M, N, K, baseM, baseN, 64, false, matmul_tiling::DataType::DT_INT8, matmul_tiling::DataType::DT_INT32);
    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, int8_t>, MatmulType<TPosition::GM, CubeFormat::ND, int8_t>,
           MatmulType<TPosition::VECIN, CubeFormat::ND, int32_t>>
        mm;
    mm.Init(&tiling, &pipe);
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    EXPECT_TWIN_ERROR(mm.template Iterate<false>(), ascendopt_twin::ErrorKind::run_failed, "needs SetWorkspace first");
    EXPECT_TWIN_ERROR(mm.GetTensorC(), ascendopt_twin::ErrorKind::run_failed, "call SetWorkspace and Iterate<false>() first");
    mm.SetWorkspace(reinterpret_cast<__gm__ const int32_t*>(ws.GetPhyAddr()), M * N);
    ASSERT_TRUE(mm.template Iterate<false>());
    const int mIter = 2, nIter = 2;
    std::vector<int> seen(size_t(M) * N, 0);
    for (int blk = 0; blk < mIter * nIter; ++blk) {
        const int mIdx = blk % mIter, nIdx = blk / mIter;  // ORDER_M
        const int bm = std::min(baseM, M - mIdx * baseM), bn = std::min(baseN, N - nIdx * baseN);
        GlobalTensor<int32_t> c = mm.GetTensorC();
        ASSERT_EQ(c.GetSize(), uint64_t(bm) * bn) << "block " << blk;
        for (int r = 0; r < bm; ++r)
            for (int col = 0; col < bn; ++col) {
                const int i = mIdx * baseM + r, j = nIdx * baseN + col;
                int64_t sum = 0;
                for (int k = 0; k < K; ++k) sum += int64_t(a[size_t(i) * K + k]) * b[size_t(k) * N + j];
                ASSERT_EQ(c.GetValue(uint64_t(r) * bn + col), int32_t(sum)) << "block " << blk << " at " << i << ", " << j;
                ++seen[size_t(i) * N + j];
            }
    }
    for (int v : seen) ASSERT_EQ(v, 1);
    EXPECT_TWIN_ERROR(mm.GetTensorC(), ascendopt_twin::ErrorKind::run_failed, "more GetTensorC() calls than blocks");
    mm.End();
    mm.SetWorkspace(reinterpret_cast<__gm__ const int32_t*>(ws.GetPhyAddr()), M * N - 1);
    EXPECT_TWIN_ERROR(mm.template Iterate<false>(), ascendopt_twin::ErrorKind::run_failed, "does not fit the 8996-byte workspace");
}

// SetQuantScalar / SetQuantVector: an int8 x int8 product (int32 in L0C) written as half through
// the Fixpipe's DEQF16 / VDEQF16 conversion, the word's float scale in bits 31..13: one scale for
// all of C, then one per column of C (the vector's first word for the single-core's first column).
TEST_F(MatmulTest, QuantizedOutputScalesEachColumn) {
    const int M = 20, N = 36, K = 48;
    std::vector<int8_t> a(size_t(M) * K), b(size_t(K) * N);
    for (size_t i = 0; i < a.size(); ++i) a[i] = int8_t((i * 13 + 1) % 41 - 20);
    for (size_t i = 0; i < b.size(); ++i) b[i] = int8_t((i * 17 + 5) % 37 - 18);
    auto word = [](float scale) {
        uint32_t bits;
        std::memcpy(&bits, &scale, 4);
        return uint64_t(bits & 0xFFFFE000u);
    };
    std::vector<uint64_t> words(N);
    for (int j = 0; j < N; ++j) words[j] = word(0.25f + 0.125f * float(j % 5));
    auto ga = gm(a), gb = gm(b);
    auto gwords = gm(words);
    half* c = nullptr;
    auto gc = gm(std::vector<half>(size_t(M) * N, half(0.0f)), &c);
    TCubeTiling tiling = single_core_tiling(M, N, K, 16, 16, 32, false, matmul_tiling::DataType::DT_INT8, matmul_tiling::DataType::DT_FLOAT16);
    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, int8_t>, MatmulType<TPosition::GM, CubeFormat::ND, int8_t>,
           MatmulType<TPosition::GM, CubeFormat::ND, half>>
        mm;
    mm.Init(&tiling, &pipe);
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    for (bool per_column : {false, true}) {
        if (per_column) mm.SetQuantVector(gwords);
        else mm.SetQuantScalar(word(0.5f));
        mm.IterateAll(gc);
        for (int i = 0; i < M; ++i)
            for (int j = 0; j < N; ++j) {
                int64_t sum = 0;
                for (int k = 0; k < K; ++k) sum += int64_t(a[size_t(i) * K + k]) * b[size_t(k) * N + j];
                const float scale = per_column ? 0.25f + 0.125f * float(j % 5) : 0.5f;
                ASSERT_EQ(float(c[size_t(i) * N + j]), float(half(float(sum) * scale))) << (per_column ? "vector" : "scalar") << " at " << i << ", " << j;
            }
    }
    // A float L0C into a float C has no quantizing conversion.
    auto gf = gm(std::vector<float>(256, 1.0f)), gfc = gm(std::vector<float>(256, 0.0f));
    TCubeTiling ft = single_core_tiling(16, 16, 16, 16, 16, 16, false, matmul_tiling::DataType::DT_FLOAT, matmul_tiling::DataType::DT_FLOAT);
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, float>, MatmulType<TPosition::GM, CubeFormat::ND, float>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>>
        fm;
    fm.Init(&ft, &pipe);
    fm.SetTensorA(gf);
    fm.SetTensorB(gf);
    fm.SetQuantScalar(word(1.0f));
    EXPECT_TWIN_ERROR(fm.IterateAll(gfc), ascendopt_twin::ErrorKind::run_failed, "no quantizing conversion");
}

// GetTensorC before Iterate, or a tiling without base sizes, is an error naming the API.
TEST_F(MatmulTest, MisuseIsAnError) {
    auto ga = gm(std::vector<half>(256, half(1.0f))), gb = gm(std::vector<half>(256, half(1.0f)));
    auto gc = gm(std::vector<float>(256, 0.0f));
    TCubeTiling tiling = single_core_tiling(16, 16, 16, 16, 16, 16, false, matmul_tiling::DataType::DT_FLOAT16, matmul_tiling::DataType::DT_FLOAT);
    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>>
        mm;
    mm.Init(&tiling, &pipe);
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    EXPECT_TWIN_ERROR(mm.GetTensorC(gc), ascendopt_twin::ErrorKind::run_failed, "Matmul::GetTensorC: no block");
    mm.SetSingleShape(16, 16, 16);
    tiling.baseM = 0;
    mm.Init(&tiling, &pipe);
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    EXPECT_TWIN_ERROR(mm.IterateAll(gc), ascendopt_twin::ErrorKind::run_failed, "baseM, baseN, baseK are 0");
}

// --- mixed launches: the AIVs are clients of their AIC ------------------------------------

namespace {

constexpr int kM = 64, kN = 48, kK = 40;  // each AIV: 32 rows

using MixA = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using MixB = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using MixCUb = MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
using MixCGm = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using MixBias = MatmulType<TPosition::GM, CubeFormat::ND, float>;

// AIV 0: Iterate + GetTensorC into UB (sequential blocks of 16 x 16), then UB -> GM itself;
// AIV 1: IterateAll into GM. Both with the bias.
extern "C" void matmul_mix_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling_addr) {
    // __restrict__ as published kernels declare their tiling pointers (is_pointer misses it).
    const TCubeTiling* __restrict__ tiling = reinterpret_cast<const TCubeTiling*>(tiling_addr);
    TPipe pipe;
    Matmul<MixA, MixB, MixCUb, MixBias> mmUb;
    Matmul<MixA, MixB, MixCGm, MixBias> mmGm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mmUb, tiling, mmGm, tiling);
    const int64_t row0 = GetBlockIdx() * 32;
    GlobalTensor<half> ga, gb;
    GlobalTensor<float> gbias, gc;
    ga.SetGlobalBuffer(reinterpret_cast<half*>(a) + row0 * kK, 32 * kK);
    gb.SetGlobalBuffer(reinterpret_cast<half*>(b), kK * kN);
    gbias.SetGlobalBuffer(reinterpret_cast<float*>(bias), kN);
    gc.SetGlobalBuffer(reinterpret_cast<float*>(c) + row0 * kN, 32 * kN);
    if (GetSubBlockIdx() == 0) {
        TQue<TPosition::VECIN, 1> q;
        pipe.InitBuffer(q, 1, 16 * 16 * sizeof(float));
        mmUb.SetTensorA(ga);
        mmUb.SetTensorB(gb);
        mmUb.SetBias(gbias);
        const int mIter = 2;
        int count = 0;
        while (mmUb.Iterate()) {
            LocalTensor<float> t = q.AllocTensor<float>();
            mmUb.GetTensorC(t, 0, true);
            q.EnQue(t);
            t = q.DeQue<float>();
            const int mIdx = count % mIter, nIdx = count / mIter;  // ORDER_M
            DataCopy(gc[mIdx * 16 * kN + nIdx * 16], t, DataCopyParams(16, 2, 0, (kN - 16) * sizeof(float) / 32));
            q.FreeTensor(t);
            ++count;
        }
        mmUb.End();
    } else {
        mmGm.SetTensorA(ga);
        mmGm.SetTensorB(gb);
        mmGm.SetBias(gbias);
        mmGm.IterateAll(gc);
        mmGm.End();
    }
}

extern "C" void matmul_without_regist_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling_addr) {
    (void)bias;
    TPipe pipe;
    Matmul<MixA, MixB, MixCGm> mm;
    mm.Init(reinterpret_cast<const TCubeTiling*>(tiling_addr), &pipe);
    GlobalTensor<half> ga, gb;
    GlobalTensor<float> gc;
    ga.SetGlobalBuffer(reinterpret_cast<half*>(a), kM * kK);
    gb.SetGlobalBuffer(reinterpret_cast<half*>(b), kK * kN);
    gc.SetGlobalBuffer(reinterpret_cast<float*>(c), kM * kN);
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    mm.IterateAll(gc);
}

struct MixSetup {
    ascendopt_twin::GmSpace gm{64u << 20};
    std::vector<half> a = random_values<half>(size_t(kM) * kK, 11);
    std::vector<half> b = random_values<half>(size_t(kK) * kN, 12);
    std::vector<float> bias = random_values<float>(kN, 13);
    std::vector<uint8_t*> args;
    float* c = nullptr;
    MixSetup() {
        auto put = [&](const char* name, const void* data, size_t bytes) {
            uint8_t* dev = gm.add(name, bytes);
            if (data) std::memcpy(gm.host(dev), data, bytes);
            return dev;
        };
        matmul_tiling::MultiCoreMatmulTiling t;
        t.SetDim(2);
        t.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
        t.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
        t.SetCType(matmul_tiling::TPosition::VECIN, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
        t.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
        t.SetShape(kM, kN, kK);
        t.SetOrgShape(kM, kN, kK);
        t.SetBias(true);
        t.SetFixSplit(16, 16, 16);
        TCubeTiling tiling;
        EXPECT_EQ(t.GetTiling(tiling), 0);
        EXPECT_EQ(tiling.singleCoreM, 32);  // split along M on the two AIVs
        EXPECT_EQ(tiling.singleCoreN, kN);
        args = {put("a", a.data(), a.size() * 2), put("b", b.data(), b.size() * 2), put("bias", bias.data(), bias.size() * 4),
                put("c", nullptr, size_t(kM) * kN * 4), put("tiling", &tiling, sizeof(tiling))};
        c = reinterpret_cast<float*>(gm.host(args[3]));
    }
};

ascendopt_twin::LaunchResult launch_mix(void* kernel, MixSetup& s, ascendopt_twin::KernelType kind) {
    ascendopt_twin::LaunchOptions options;
    options.kernel_type = kind;
    return ascendopt_twin::launch(ascendopt_twin::testing::test_soc(), kernel, s.args, 1, 0, s.gm, options);
}

}  // namespace

TEST(MatmulLaunch, AivsAreClientsOfTheirAic) {
    MixSetup s;
    auto r = launch_mix(reinterpret_cast<void*>(&matmul_mix_kernel), s, ascendopt_twin::KernelType::mix_aic_1_2);
    expect_close(s.c, reference(s.a, s.b, &s.bias, kM, kN, kK, false, false), 1e-5, "mixed launch");
    // The cube work is the AIC's: M, MTE1 and FIX busy there, never on the AIVs.
    ASSERT_EQ(r.blocks.size(), 3u);
    const double aic_m_end = r.blocks[0].pipes[size_t(ascendopt_twin::PipeId::M)].busy;
    for (const auto& b : r.blocks) {
        const auto& m = b.pipes[size_t(ascendopt_twin::PipeId::M)];
        const auto& fix = b.pipes[size_t(ascendopt_twin::PipeId::FIX)];
        if (b.kind == CoreKind::aic) {
            EXPECT_EQ(m.count, 2u * 2 * 3 * 3);  // 2 AIVs x 6 blocks x 3 K slices (40 over baseK 16)
            EXPECT_GT(fix.busy, 0.0);
        } else {
            EXPECT_EQ(m.count, 0u);
            EXPECT_EQ(fix.count, 0u);
            EXPECT_GT(b.end_cycles, aic_m_end);  // waited for the AIC's work
        }
    }
}

TEST(MatmulLaunch, AVectorOnlyLaunchHasNoAicToServe) {
    MixSetup s;
    EXPECT_TWIN_ERROR(launch_mix(reinterpret_cast<void*>(&matmul_mix_kernel), s, ascendopt_twin::KernelType::aiv),
                      ascendopt_twin::ErrorKind::run_failed, "needs the AIC of its AI Core");
}

TEST(MatmulLaunch, AnUnregisteredObjectHasNoCounterpart) {
    MixSetup s;
    EXPECT_TWIN_ERROR(launch_mix(reinterpret_cast<void*>(&matmul_without_regist_kernel), s, ascendopt_twin::KernelType::mix_aic_1_2),
                      ascendopt_twin::ErrorKind::run_failed, "REGIST_MATMUL_OBJ");
}

namespace {

constexpr int kBig = 128;  // M = N = K: one 128 x 128 x 128 base block (32 KiB of L0A and of L0B in half)

// Two registered objects with full-size base blocks, one per AIV: each alone takes half of L0A
// and of L0B, so the AIC can only serve both if they share one L0 area (as on the device).
extern "C" void two_big_objects_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR c1, GM_ADDR c2, GM_ADDR tiling_addr) {
    const TCubeTiling* __restrict__ tiling = reinterpret_cast<const TCubeTiling*>(tiling_addr);
    TPipe pipe;
    Matmul<MixA, MixB, MixCGm> first, second;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), first, tiling, second, tiling);
    GlobalTensor<half> ga, gb;
    GlobalTensor<float> gc;
    ga.SetGlobalBuffer(reinterpret_cast<half*>(a), kBig * kBig);
    gb.SetGlobalBuffer(reinterpret_cast<half*>(b), kBig * kBig);
    gc.SetGlobalBuffer(reinterpret_cast<float*>(GetSubBlockIdx() == 0 ? c1 : c2), kBig * kBig);
    auto& mm = GetSubBlockIdx() == 0 ? first : second;
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    mm.IterateAll(gc);
    mm.End();
}

}  // namespace

TEST(MatmulLaunch, RegisteredObjectsShareTheAicsL0) {
    ascendopt_twin::GmSpace gm(16u << 20);
    const auto a = random_values<half>(size_t(kBig) * kBig, 31), b = random_values<half>(size_t(kBig) * kBig, 32);
    auto put = [&](const char* name, const void* data, size_t bytes) {
        uint8_t* dev = gm.add(name, bytes);
        if (data) std::memcpy(gm.host(dev), data, bytes);
        return dev;
    };
    TCubeTiling tiling = single_core_tiling(kBig, kBig, kBig, kBig, kBig, kBig, false, matmul_tiling::DataType::DT_FLOAT16,
                                            matmul_tiling::DataType::DT_FLOAT);
    std::vector<uint8_t*> args = {put("a", a.data(), a.size() * 2), put("b", b.data(), b.size() * 2), put("c1", nullptr, size_t(kBig) * kBig * 4),
                                  put("c2", nullptr, size_t(kBig) * kBig * 4), put("tiling", &tiling, sizeof(tiling))};
    ascendopt_twin::LaunchOptions options;
    options.kernel_type = ascendopt_twin::KernelType::mix_aic_1_2;
    ascendopt_twin::launch(ascendopt_twin::testing::test_soc(), reinterpret_cast<void*>(&two_big_objects_kernel), args, 1, 0, gm, options);
    const auto want = reference(a, b, static_cast<const std::vector<float>*>(nullptr), kBig, kBig, kBig, false, false);
    expect_close(reinterpret_cast<const float*>(gm.host(args[2])), want, 1e-5, "first object");
    expect_close(reinterpret_cast<const float*>(gm.host(args[3])), want, 1e-5, "second object");
}

// --- host tiling ----------------------------------------------------------------------------

// Over a sweep of shapes, types and core counts the tiling covers the shape with at most the
// cores given, and its base blocks fit L0A, L0B and L0C with fractal alignment.
TEST(MatmulTiling, ValidOverASweepOfShapes) {
    using matmul_tiling::DataType;
    const int shapes[][3] = {{1, 1, 1}, {16, 16, 16}, {17, 33, 65}, {1024, 640, 256}, {4096, 96, 7}, {5, 3000, 1000}, {777, 555, 333}};
    for (DataType in : {DataType::DT_FLOAT16, DataType::DT_FLOAT, DataType::DT_INT8, DataType::DT_BF16})
        for (const auto& s : shapes)
            for (int dim : {1, 2, 7, 24, 48}) {
                matmul_tiling::MultiCoreMatmulTiling t;
                t.SetDim(dim);
                t.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, in);
                t.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, in);
                t.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DataType::DT_FLOAT);
                t.SetShape(s[0], s[1], s[2]);
                t.SetOrgShape(s[0], s[1], s[2]);
                t.SetBias(true);
                t.SetBufferSpace(-1, -1, -1);
                TCubeTiling c;
                ASSERT_EQ(t.GetTiling(c), 0) << s[0] << "x" << s[1] << "x" << s[2] << " dim " << dim;
                const int e = in == DataType::DT_FLOAT ? 4 : in == DataType::DT_INT8 ? 1 : 2;
                const int m = (s[0] + c.singleCoreM - 1) / c.singleCoreM, n = (s[1] + c.singleCoreN - 1) / c.singleCoreN;
                EXPECT_EQ(c.usedCoreNum, m * n);
                EXPECT_LE(c.usedCoreNum, dim);
                EXPECT_EQ(c.singleCoreK, s[2]);
                EXPECT_EQ(c.baseM % 16, 0);
                EXPECT_EQ(c.baseN % 16, 0);
                EXPECT_EQ(c.baseK % (32 / e), 0);
                EXPECT_LE(c.baseM * c.baseN * 4, 128 * 1024);
                EXPECT_LE(c.baseM * c.baseK * e, 64 * 1024);
                EXPECT_LE(c.baseK * c.baseN * e, 64 * 1024);
                EXPECT_LE(int64_t(c.depthA1) * (c.baseM * c.baseK * e + c.baseK * c.baseN * e), 512 * 1024);
                EXPECT_GE(c.stepKa, 1);
                EXPECT_EQ(c.M, s[0]);
                EXPECT_EQ(c.isBias, 1);
            }
}

TEST(MatmulTiling, FixedSplitsThatDoNotFitFail) {
    matmul_tiling::MatmulApiTiling t;
    t.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    t.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    t.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    t.SetShape(512, 512, 512);
    t.SetFixSplit(256, 256, -1);  // 256 x 256 floats: 256 KiB of L0C
    TCubeTiling c;
    EXPECT_EQ(t.GetTiling(c), -1);
    t.SetFixSplit(128, 128, 64);
    EXPECT_EQ(t.GetTiling(c), 0);
    EXPECT_EQ(c.baseK, 64);
    EXPECT_EQ(c.usedCoreNum, 1);
    EXPECT_EQ(c.singleCoreM, 512);
}

// The constexpr config helpers and the static tiling operators use as template arguments.
TEST(MatmulConfig, ConstantTilingFromTheShapeParameters) {
    constexpr MatmulShapeParams shape = {512, 640, 256, 128, 128, 64};
    constexpr MatmulConfig cfg = GetMMConfig<MatmulConfigMode::CONFIG_NORM>(shape);
    constexpr MatmulApiStaticTiling st =
        GetMatmulApiTiling<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
                           MatmulType<TPosition::GM, CubeFormat::ND, float>, MatmulType<TPosition::GM, CubeFormat::ND, float>>(cfg);
    static_assert(st.baseK == 64 && st.singleCoreN == 640 && st.stepKa == 4, "constant tiling");
    static_assert(!CFG_MDL.doNorm && CFG_NORM.doNorm && GetMDLConfig(false, false, 2).doMTE2Preload == 2, "config helpers");
    EXPECT_EQ(st.cfg.basicM, 128u);
}

// --- AOE tuning registries (host): kept, never consulted ---------------------------------------

#include "register/tuning_bank_key_registry.h"

namespace tuningtiling {

#pragma pack(push, 1)
struct TestBankKey {
    int64_t m;
    int32_t k;
    ge::DataType dtype;
};
#pragma pack(pop)

BEGIN_TUNING_TILING_DEF(TestTunerTiling)
TUNING_TILING_DATA_FIELD_DEF(uint32_t, baseM);
TUNING_TILING_DATA_FIELD_DEF(uint32_t, baseN);
END_TUNING_TILING_DEF

DECLARE_SCHEMA(TestTunerTiling, FIELD(TestTunerTiling, baseM), FIELD(TestTunerTiling, baseN));
REGISTER_TUNING_TILING_CLASS(TestTuningOp, TestTunerTiling);
DECLARE_STRUCT_RELATE_WITH_OP_V2(TestTuningOp, TestBankKey, m, k, dtype);

}  // namespace tuningtiling

TEST(TuningRegistries, RecordsSchemaAndBankKeysRoundTrip) {
    using namespace tuningtiling;
    auto rec = TuningTilingClassFactory::CreateTilingDataInstance("TestTuningOp");
    ASSERT_NE(rec, nullptr);
    auto typed = std::static_pointer_cast<TestTunerTiling>(rec);
    EXPECT_EQ(typed->baseM, 0u);
    EXPECT_EQ(TuningTilingClassFactory::CreateTilingDataInstance("NoSuchOp"), nullptr);
    EXPECT_EQ(TestTunerTiling_schema_field_names(), (std::vector<std::string>{"baseM", "baseN"}));

    auto& infos = OpBankKeyFuncRegistryV2::RegisteredOpFuncInfoV2();
    auto it = infos.find(ge::AscendString("TestTuningOp"));
    ASSERT_NE(it, infos.end());
    auto key = std::make_shared<TestBankKey>(TestBankKey{-5, 300, ge::DT_FLOAT16});
    ge::AscendString text;
    ASSERT_TRUE(it->second.GetBankKeyParseFuncV2()(key, sizeof(TestBankKey), text));
    EXPECT_EQ(std::string(text.GetString()).rfind("{\"bytes\": \"", 0), 0u) << text.GetString();
    std::shared_ptr<void> back;
    size_t size = 0;
    ASSERT_TRUE(it->second.GetBankKeyLoadFuncV2()(back, size, text));
    ASSERT_EQ(size, sizeof(TestBankKey));
    const auto* k = static_cast<const TestBankKey*>(back.get());
    EXPECT_EQ(k->m, -5);
    EXPECT_EQ(k->k, 300);
    EXPECT_EQ(k->dtype, ge::DT_FLOAT16);
    EXPECT_FALSE(it->second.GetBankKeyParseFuncV2()(key, sizeof(TestBankKey) - 1, text));  // wrong size
}
