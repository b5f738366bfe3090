// Advanced APIs (softmax, sort, quantization, reductions, byte-mask select) and their host tiling
// helpers against scalar references: each reference is written here from the documented formula,
// computed in double and rounded once with a conversion of this file's own.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"
#include "twin_fixture.h"

using namespace AscendC;
using ascendopt_twin::ErrorKind;
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

// The half nearest to v (ties to even), by comparing neighbours in double: independent of the
// twin's round-to-odd path.
half nearest_half(double v) {
    if (std::isnan(v)) return half(NAN);
    if (std::fabs(v) >= 65520.0) return half(v > 0 ? INFINITY : -INFINITY);  // IEEE overflow threshold
    half h = half(float(v));
    auto val = [](uint16_t b) { return double(float(half::from_bits(b))); };
    uint16_t best = h.bits;
    for (int d : {-1, 1}) {
        const uint16_t b = uint16_t(h.bits + d);
        if ((b & 0x7c00u) == 0x7c00u && (b & 0x3ffu)) continue;  // NaN patterns
        const double e0 = std::fabs(val(best) - v), e1 = std::fabs(val(b) - v);
        if (e1 < e0 || (e1 == e0 && (b & 1u) == 0)) best = b;
    }
    return half::from_bits(best);
}
template <class T>
T nearest(double v) {
    if constexpr (std::is_same_v<T, half>) return nearest_half(v);
    else return static_cast<T>(v);
}
template <class T>
uint32_t bits_of(T v) {
    if constexpr (sizeof(T) == 2) return v.bits;
    else {
        uint32_t b;
        std::memcpy(&b, &v, 4);
        return b;
    }
}

// Reference softmax of one row: reduction over the first rk columns, all k written.
std::vector<double> softmax_row(const std::vector<double>& x, uint32_t rk, double* max_out, double* sum_out) {
    double mx = x[0];
    for (uint32_t j = 1; j < rk; ++j) mx = (std::isnan(mx) || std::isnan(x[j])) ? NAN : std::max(mx, x[j]);
    double s = 0;
    for (uint32_t j = 0; j < rk; ++j) s += std::exp(x[j] - mx);
    std::vector<double> out(x.size());
    for (size_t j = 0; j < x.size(); ++j) out[j] = std::exp(x[j] - mx) / s;
    if (max_out) *max_out = mx;
    if (sum_out) *sum_out = s;
    return out;
}

template <class T>
std::vector<double> row(const LocalTensor<T>& t, uint32_t r, uint32_t k) {
    std::vector<double> v(k);
    for (uint32_t j = 0; j < k; ++j) v[j] = double(float(t.data()[r * k + j]));
    return v;
}

SoftMaxTiling host_softmax_tiling(uint32_t m, uint32_t k, uint32_t type_size, uint32_t bytes) {
    gert::Shape shape({int64_t(m), int64_t(k)});
    SoftMaxTiling t;
    AscendC::SoftMaxTilingFunc(shape, type_size, bytes, t);
    return t;
}

}  // namespace

class AdvancedApiTest : public TwinCoreTest {};

// ---------------------------------------------------------------- SoftMax family

TEST_F(AdvancedApiTest, SoftMaxFloatMatchesReferenceWithInfiniteAndLargeValues) {
    const uint32_t m = 4, k = 16;
    auto src = ub<float>(m * k, 0);
    auto dst = ub<float>(m * k, 4096);
    auto sum = ub<float>(m * 8, 8192);
    auto max = ub<float>(m * 8, 9216);
    auto tmp = ub<uint8_t>(16384, 16384);
    fill(src, m * k, -5, 5, 3);
    src.data()[3] = -INFINITY;          // a row with -inf: its weight is 0
    src.data()[k + 2] = 30000.0f;       // large values must not overflow
    src.data()[k + 7] = 29990.0f;
    for (uint32_t j = 0; j < k; ++j) src.data()[2 * k + j] = -1e30f + float(j);  // hugely negative row
    const SoftMaxTiling tiling = host_softmax_tiling(m, k, 4, 16384);
    SoftMax<float>(dst, sum, max, src, tmp, tiling, SoftMaxShapeInfo{m, k, m, k});
    for (uint32_t r = 0; r < m; ++r) {
        double mx, s;
        const auto ref = softmax_row(row(src, r, k), k, &mx, &s);
        for (uint32_t j = 0; j < k; ++j) ASSERT_EQ(dst.data()[r * k + j], float(ref[j])) << r << "," << j;
        for (uint32_t i = 0; i < 8; ++i) {
            EXPECT_EQ(max.data()[r * 8 + i], float(mx)) << "max row " << r;
            EXPECT_EQ(sum.data()[r * 8 + i], float(s)) << "sum row " << r;
        }
    }
    EXPECT_EQ(dst.data()[3], 0.0f);
    EXPECT_GT(dst.data()[k + 2], 0.99f);
    EXPECT_EQ(m_core->counts().by_kind.count("Exp"), 1u);
    EXPECT_GE(m_core->counts().by_kind.at("Exp"), 1u);
}

TEST_F(AdvancedApiTest, SoftMaxHalfRoundsOnceAndReducesOnlyTheOriginalColumns) {
    const uint32_t m = 3, k = 32, ori_k = 20;
    auto src = ub<half>(m * k, 0);
    auto dst = ub<half>(m * k, 4096);
    auto sum = ub<half>(m * 16, 8192);
    auto max = ub<half>(m * 16, 9216);
    auto tmp = ub<uint8_t>(16384, 16384);
    fill(src, m * k, -8, 8, 7);
    for (uint32_t j = ori_k; j < k; ++j) src.data()[j] = half(100.0f);  // padding that must not win the max
    SoftMax<half>(dst, sum, max, src, tmp, SoftMaxTiling{}, SoftMaxShapeInfo{m, k, m, ori_k});
    for (uint32_t r = 0; r < m; ++r) {
        double mx, s;
        const auto ref = softmax_row(row(src, r, k), ori_k, &mx, &s);
        for (uint32_t j = 0; j < k; ++j) ASSERT_EQ(dst.data()[r * k + j].bits, nearest_half(ref[j]).bits) << r << "," << j;
        EXPECT_EQ(max.data()[r * 16 + 15].bits, nearest_half(mx).bits);
        EXPECT_EQ(sum.data()[r * 16].bits, nearest_half(s).bits);
    }
}

TEST_F(AdvancedApiTest, SoftMaxWithoutOutputsUsesTheUbPastThePipe) {
    const uint32_t m = 8, k = 64;
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b;
    pipe.InitBuffer(a, m * k * 2);
    pipe.InitBuffer(b, m * k * 2);
    auto src = a.Get<half>(), dst = b.Get<half>();
    fill(src, m * k, -3, 3, 11);
    SoftMax<half>(dst, src, host_softmax_tiling(m, k, 2, 4096), SoftMaxShapeInfo{m, k, m, k});
    for (uint32_t r = 0; r < m; ++r) {
        const auto ref = softmax_row(row(src, r, k), k, nullptr, nullptr);
        for (uint32_t j = 0; j < k; ++j) ASSERT_EQ(dst.data()[r * k + j].bits, nearest_half(ref[j]).bits);
    }
    // In place, as inplace_attn_softmax calls it.
    std::vector<double> ref0 = softmax_row(row(src, 0, k), k, nullptr, nullptr);
    SoftMax<half>(src, src, SoftMaxTiling{}, SoftMaxShapeInfo{m, k, m, k});
    for (uint32_t j = 0; j < k; ++j) ASSERT_EQ(src.data()[j].bits, nearest_half(ref0[j]).bits);
}

TEST_F(AdvancedApiTest, SoftMaxRefusesMissingShapesAndTooSmallTemporaryBuffers) {
    auto src = ub<float>(64, 0);
    auto dst = ub<float>(64, 1024);
    auto tmp = ub<uint8_t>(64, 2048);
    EXPECT_TWIN_ERROR(SoftMax<float>(dst, src, tmp, SoftMaxTiling{}, SoftMaxShapeInfo{}), ErrorKind::run_failed, "no shape");
    // A row of 64 floats needs (8 + 64 + 64) * 4 = 544 bytes; 64 bytes hold none.
    EXPECT_TWIN_ERROR(SoftMax<float>(dst, src, tmp, SoftMaxTiling{}, SoftMaxShapeInfo{1, 64, 1, 64}), ErrorKind::run_failed, "holds no row");
    SoftMaxTiling zero_split = host_softmax_tiling(1, 64, 4, 4096);
    zero_split.splitM = 0;
    EXPECT_TWIN_ERROR(SoftMax<float>(dst, src, tmp, zero_split, SoftMaxShapeInfo{1, 64, 1, 64}), ErrorKind::run_failed, "splitM is 0");
    // A tiling made for more space than the buffer has: the API works past the buffer (strict: an error).
    strict_ub();
    auto src2 = ub<float>(64, 0);
    auto dst2 = ub<float>(64, 1024);
    auto small = ub<uint8_t>(256, 2048);
    const SoftMaxTiling big = host_softmax_tiling(1, 64, 4, 4096);
    EXPECT_TWIN_ERROR(SoftMax<float>(dst2, src2, small, big, SoftMaxShapeInfo{1, 64, 1, 64}), ErrorKind::run_failed, "temporary buffer");
}

TEST_F(AdvancedApiTest, SimpleSoftMaxUsesTheGivenMaxAndSum) {
    const uint32_t m = 2, k = 16;
    auto src = ub<half>(m * k, 0);
    auto dst = ub<half>(m * k, 1024);
    auto sum = ub<float>(m * 8, 2048);
    auto max = ub<float>(m * 8, 3072);
    auto tmp = ub<uint8_t>(4096, 8192);
    fill(src, m * k, -2, 2, 5);
    for (uint32_t i = 0; i < 16; ++i) {
        max.data()[i] = i < 8 ? 1.5f : -0.5f;
        sum.data()[i] = i < 8 ? 3.0f : 7.0f;
    }
    SimpleSoftMax<half>(dst, sum, max, src, tmp, SoftMaxTiling{}, SoftMaxShapeInfo{m, k, m, k});
    for (uint32_t r = 0; r < m; ++r)
        for (uint32_t j = 0; j < k; ++j) {
            const double x = double(float(src.data()[r * k + j]));
            ASSERT_EQ(dst.data()[r * k + j].bits, nearest_half(std::exp(x - (r ? -0.5 : 1.5)) / (r ? 7.0 : 3.0)).bits);
        }
}

TEST_F(AdvancedApiTest, SoftmaxFlashV2WithAndWithoutUpdate) {
    const uint32_t m = 2, k = 16;
    auto src = ub<float>(m * k, 0);
    auto dst = ub<float>(m * k, 1024);
    auto sum = ub<float>(m * 8, 2048);
    auto max = ub<float>(m * 8, 3072);
    auto exp_max = ub<float>(m * 8, 4096);
    auto tmp = ub<uint8_t>(4096, 8192);
    fill(src, m * k, -4, 4, 9);
    SoftmaxFlashV2<float, false>(dst, sum, max, src, exp_max, sum, max, tmp, SoftMaxTiling{}, SoftMaxShapeInfo{m, k, m, k});
    std::vector<double> mx(m), s(m);
    for (uint32_t r = 0; r < m; ++r) {
        const auto x = row(src, r, k);
        mx[r] = *std::max_element(x.begin(), x.end());
        s[r] = 0;
        for (double v : x) s[r] += std::exp(v - mx[r]);
        for (uint32_t j = 0; j < k; ++j) ASSERT_EQ(dst.data()[r * k + j], float(std::exp(x[j] - mx[r])));
        EXPECT_EQ(max.data()[r * 8 + 3], float(mx[r]));
        EXPECT_EQ(sum.data()[r * 8 + 3], float(s[r]));
    }
    // Update with a second block whose row 0 has a larger maximum; sum and max are updated in place.
    auto src2 = ub<float>(m * k, 12288);
    fill(src2, m * k, -4, 4, 13);
    src2.data()[5] = 10.0f;
    const float old_max0 = max.data()[0], old_sum0 = sum.data()[0];
    SoftmaxFlashV2<float, true>(dst, sum, max, src2, exp_max, sum, max, tmp, SoftMaxTiling{}, SoftMaxShapeInfo{m, k, m, k});
    const auto x = row(src2, 0, k);
    const double new_max = std::max<double>(old_max0, *std::max_element(x.begin(), x.end()));
    double s2 = 0;
    for (double v : x) s2 += std::exp(v - new_max);
    const double em = std::exp(double(old_max0) - new_max);
    EXPECT_EQ(max.data()[7], float(new_max));
    EXPECT_EQ(exp_max.data()[0], float(em));
    EXPECT_EQ(sum.data()[0], float(em * old_sum0 + s2));
    EXPECT_EQ(dst.data()[5], float(std::exp(10.0 - new_max)));
}

namespace {
constexpr SoftmaxConfig k_as_is = {false};  // isCheckTiling off: the tiling's shape as it is
}

// A source whose attached ShapeInfo says its rows hold 11 real columns of the 16 stored (as flash
// attention marks its 32-byte-aligned score rows): the max and sum cover those 11 only, whatever
// the padding holds; without the ShapeInfo they cover all 16.
TEST_F(AdvancedApiTest, SoftmaxFlashV2ReducesOverTheAttachedOriginalShape) {
    const uint32_t m = 2, k = 16, real_k = 11;
    auto src = ub<float>(m * k, 0);
    auto dst = ub<float>(m * k, 1024);
    auto sum = ub<float>(m * 8, 2048);
    auto max = ub<float>(m * 8, 3072);
    auto exp_max = ub<float>(m * 8, 4096);
    auto tmp = ub<uint8_t>(4096, 8192);
    fill(src, m * k, -4, 4, 21);
    for (uint32_t r = 0; r < m; ++r)
        for (uint32_t j = real_k; j < k; ++j) src.data()[r * k + j] = 50.0f;  // padding that would dominate
    SoftMaxTiling tiling{};
    tiling.srcM = m;
    tiling.srcK = k;
    tiling.splitM = m;
    const uint32_t stored[] = {m, k}, original[] = {m, real_k};
    src.SetShapeInfo(ShapeInfo(2, stored, 2, original, DataFormat::ND));
    SoftmaxFlashV2<float, false, false, false, false, k_as_is>(dst, sum, max, src, exp_max, sum, max, tmp, tiling);
    for (uint32_t r = 0; r < m; ++r) {
        auto x = row(src, r, k);
        x.resize(real_k);
        const double mx = *std::max_element(x.begin(), x.end());
        double total = 0;
        for (double v : x) total += std::exp(v - mx);
        EXPECT_EQ(max.data()[r * 8], float(mx)) << r;
        EXPECT_EQ(sum.data()[r * 8], float(total)) << r;
    }
    src.SetShapeInfo(ShapeInfo());
    SoftmaxFlashV2<float, false, false, false, false, k_as_is>(dst, sum, max, src, exp_max, sum, max, tmp, tiling);
    EXPECT_EQ(max.data()[0], 50.0f);
}

namespace {
constexpr SoftmaxConfig k_no_brc = {false, 0, 0, SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC};
}

TEST_F(AdvancedApiTest, SoftmaxFlashV2WithoutBroadcastWritesOneValuePerRow) {
    const uint32_t m = 3, k = 8;
    auto src = ub<float>(m * k, 0);
    auto dst = ub<float>(m * k, 1024);
    auto sum = ub<float>(8, 2048);
    auto max = ub<float>(8, 2304);
    auto in_sum = ub<float>(8, 2560);
    auto in_max = ub<float>(8, 2816);
    auto exp_max = ub<float>(8, 3072);
    auto reduce_max = ub<float>(8, 3328);
    auto tmp = ub<uint8_t>(4096, 8192);
    fill(src, m * k, -1, 1, 21);
    for (uint32_t r = 0; r < m; ++r) {
        in_max.data()[r] = 0.25f * float(r);
        in_sum.data()[r] = 2.0f;
    }
    sum.data()[3] = 123.0f;  // [m, 1]: nothing past row m-1
    const SoftMaxTiling tiling = AscendC::SoftMaxFlashV2TilingFunc(SoftMaxShapeInfo{m, k, m, k}, 4, 4, 4096, true, false, false, true);
    SoftmaxFlashV2<float, true, false, false, false, k_no_brc>(dst, reduce_max, sum, max, src, exp_max, in_sum, in_max, tmp, tiling);
    for (uint32_t r = 0; r < m; ++r) {
        const auto x = row(src, r, k);
        const double rm = *std::max_element(x.begin(), x.end());
        const double mx = std::max<double>(in_max.data()[r], rm);
        EXPECT_EQ(reduce_max.data()[r], float(rm));
        EXPECT_EQ(max.data()[r], float(mx));
        EXPECT_EQ(exp_max.data()[r], float(std::exp(double(in_max.data()[r]) - mx)));
    }
    EXPECT_EQ(sum.data()[3], 123.0f);
}

TEST_F(AdvancedApiTest, SoftmaxGradAndGradFront) {
    const uint32_t m = 2, k = 16;
    auto grad = ub<half>(m * k, 0);
    auto src = ub<half>(m * k, 1024);
    auto dst = ub<half>(m * k, 2048);
    auto front = ub<half>(m * 16, 3072);
    auto tmp = ub<uint8_t>(8192, 8192);
    fill(grad, m * k, -1, 1, 2);
    fill(src, m * k, 0, 0.2f, 4);
    SoftmaxGrad<half>(dst, grad, src, tmp, SoftMaxTiling{}, false, SoftMaxShapeInfo{m, k, m, k});
    SoftmaxGradFront<half>(front, grad, src, tmp, SoftMaxTiling{}, SoftMaxShapeInfo{m, k, m, k});
    for (uint32_t r = 0; r < m; ++r) {
        double d = 0;
        for (uint32_t j = 0; j < k; ++j) d += double(float(grad.data()[r * k + j])) * double(float(src.data()[r * k + j]));
        for (uint32_t j = 0; j < k; ++j) {
            const double g = float(grad.data()[r * k + j]), y = float(src.data()[r * k + j]);
            ASSERT_EQ(dst.data()[r * k + j].bits, nearest_half((g - d) * y).bits);
        }
        for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(front.data()[r * 16 + i].bits, nearest_half(d).bits);
    }
}

TEST_F(AdvancedApiTest, SoftMaxHostTilingMatchesTheLibraryFigures) {
    gert::Shape shape({320, 64});
    EXPECT_EQ(AscendC::GetSoftMaxMinTmpSize(shape, 2, false), (16u + 64 + 64) * 4);
    EXPECT_EQ(AscendC::GetSoftMaxMaxTmpSize(shape, 2, false), 320u * (16 + 64 + 64) * 4);
    SoftMaxTiling t;
    AscendC::SoftMaxTilingFunc(shape, 2, 100 * 576, t);
    // 100 rows fit; rounded to 96, then to a divisor of 320 that is a multiple of 8.
    EXPECT_EQ(t.srcM, 320u);
    EXPECT_EQ(t.srcK, 64u);
    EXPECT_EQ(t.splitM, 80u);
    EXPECT_EQ(t.reduceK, 16u);
    EXPECT_EQ(t.rangeM, 4u);
    EXPECT_EQ(t.tailM, 0u);
    EXPECT_EQ(t.outMaxSize, 320u * 16);
    EXPECT_FALSE(AscendC::IsBasicBlockInSoftMax(t, 2));  // half needs k >= 128
    EXPECT_TRUE(AscendC::IsBasicBlockInSoftMax(t, 4));
    AscendC::SoftMaxTilingFunc(shape, 2, 576, t);
    EXPECT_EQ(t.splitM, 1u);
    EXPECT_EQ(t.rangeM, 320u);
    gert::Shape odd({7, 24});
    AscendC::SoftMaxTilingFunc(odd, 4, 4 * 96 * 3, t);
    EXPECT_EQ(t.splitM, 3u);
    EXPECT_EQ(t.tailM, 1u);
    EXPECT_FALSE(AscendC::IsBasicBlockInSoftMax(t, 4));
    EXPECT_EQ(AscendC::GetSoftMaxFlashV2MinTmpSize(gert::Shape({8, 64}), 4, 4, true), (8u + 64) * 4);
    EXPECT_EQ(AscendC::GetSoftMaxFlashV2MinTmpSize(gert::Shape({8, 64}), 2, 4, true), (16u + 64 + 64) * 4);
    EXPECT_EQ(AscendC::GetSoftMaxGradMinTmpSize(gert::Shape({8, 64}), 4, true, false), (8u + 64 + 64) * 4);
    EXPECT_EQ(AscendC::GetSoftMaxGradMaxTmpSize(gert::Shape({8, 64}), 2, false, false), 8u * (32 + 3 * 64 + 64) * 4);
    EXPECT_TWIN_ERROR(AscendC::GetSoftMaxMinTmpSize(shape, 3, false), ErrorKind::run_failed, "half (2) or float (4)");
}

namespace optiling {
BEGIN_TILING_DATA_DEF(AdvancedTestTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);
TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, softmax);
END_TILING_DATA_DEF;
}  // namespace optiling

TEST_F(AdvancedApiTest, SoftMaxTilingTravelsInsideTilingData) {
    optiling::AdvancedTestTilingData host;
    host.set_rows(5);
    AscendC::SoftMaxTilingFunc(gert::Shape({5, 32}), 4, 4096, host.softmax);
    uint8_t buffer[256] = {};
    host.SaveToBuffer(buffer, sizeof(buffer));
    optiling::AdvancedTestTilingData kernel;
    std::memcpy(static_cast<void*>(&kernel), buffer, sizeof(kernel));
    const AscendC::tiling::SoftMaxTiling& t = kernel.softmax;
    EXPECT_EQ(kernel.rows, 5u);
    EXPECT_EQ(t.srcM, 5u);
    EXPECT_EQ(t.get_srcK(), 32u);
    EXPECT_EQ(t.splitM, 5u);
}

// ---------------------------------------------------------------- sorting

TEST_F(AdvancedApiTest, Sort32OrdersDescendingKeepsTiesInOrderAndPutsNanFirst) {
    auto scores = ub<float>(64, 0);
    auto dst = ub<float>(128, 1024);
    auto index = ub<uint32_t>(64, 4096);
    fill(scores, 64, -10, 10, 17);
    scores.data()[5] = scores.data()[9] = scores.data()[20] = 3.0f;  // ties
    scores.data()[12] = NAN;
    scores.data()[13] = -INFINITY;
    for (uint32_t i = 0; i < 64; ++i) index.data()[i] = 1000 + i;
    Sort32(dst, scores, index, 2);
    for (uint32_t r = 0; r < 2; ++r) {
        std::vector<uint32_t> order(32);
        for (uint32_t i = 0; i < 32; ++i) order[i] = i;
        auto key = [&](uint32_t i) { return double(scores.data()[r * 32 + i]); };
        std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
            if (std::isnan(key(a)) || std::isnan(key(b))) return std::isnan(key(a)) && !std::isnan(key(b));
            return key(a) > key(b);
        });
        for (uint32_t i = 0; i < 32; ++i) {
            const float got = dst.data()[(r * 32 + i) * 2];
            uint32_t idx;
            std::memcpy(&idx, &dst.data()[(r * 32 + i) * 2 + 1], 4);
            EXPECT_EQ(bits_of(got), bits_of(scores.data()[r * 32 + order[i]])) << r << ":" << i;
            EXPECT_EQ(idx, 1000 + r * 32 + order[i]) << r << ":" << i;
        }
    }
    EXPECT_TRUE(std::isnan(dst.data()[0]));
    uint32_t i5 = 99, i9 = 0;  // ties: 5 before 9 before 20
    for (uint32_t i = 0; i < 32; ++i) {
        uint32_t idx;
        std::memcpy(&idx, &dst.data()[i * 2 + 1], 4);
        if (idx == 1005) i5 = i;
        if (idx == 1009) i9 = i;
    }
    EXPECT_EQ(i9, i5 + 1);
}

TEST_F(AdvancedApiTest, Sort32HalfPairsKeepTheIndexInTheHighWord) {
    auto scores = ub<half>(32, 0);
    auto dst = ub<half>(128, 1024);
    auto index = ub<uint32_t>(32, 4096);
    for (uint32_t i = 0; i < 32; ++i) {
        scores.data()[i] = half(float(i % 7));
        index.data()[i] = 0xABCD0000u + i;
    }
    Sort32(dst, scores, index, 1);
    const uint8_t* bytes = reinterpret_cast<const uint8_t*>(dst.data());
    EXPECT_EQ(float(dst.data()[0]), 6.0f);
    uint16_t reserved;
    uint32_t idx;
    std::memcpy(&reserved, bytes + 2, 2);
    std::memcpy(&idx, bytes + 4, 4);
    EXPECT_EQ(reserved, 0u);
    EXPECT_EQ(idx, 0xABCD0006u);  // the first 6
    std::memcpy(&idx, bytes + 8 + 4, 4);
    EXPECT_EQ(idx, 0xABCD000Du);  // then the next 6 (13)
}

namespace {
// Writes a sorted queue of float pairs (score, index) at `at`.
void put_queue(const LocalTensor<float>& t, const std::vector<float>& scores, uint32_t first_index) {
    for (size_t i = 0; i < scores.size(); ++i) {
        t.data()[i * 2] = scores[i];
        const uint32_t idx = first_index + uint32_t(i);
        std::memcpy(&t.data()[i * 2 + 1], &idx, 4);
    }
}
uint32_t pair_idx(const LocalTensor<float>& t, uint32_t i) {
    uint32_t v;
    std::memcpy(&v, &t.data()[i * 2 + 1], 4);
    return v;
}
}  // namespace

TEST_F(AdvancedApiTest, MrgSortMergesQueuesTiesGoToTheLowerQueue) {
    auto q = ub<float>(64, 0);
    auto dst = ub<float>(64, 1024);
    put_queue(q[0], {9, 5, 5, 1}, 0);
    put_queue(q[8], {7, 5, 2}, 100);
    put_queue(q[16], {8, 5}, 200);
    MrgSortSrcList<float> list(q[0], q[8], q[16], q[16]);
    const uint16_t lengths[4] = {4, 3, 2, 0};
    MrgSort(dst, list, MrgSort4Info(lengths, false, 7, 1));
    const uint32_t want[] = {0, 200, 100, 1, 2, 101, 201, 102, 3};
    for (uint32_t i = 0; i < 9; ++i) EXPECT_EQ(pair_idx(dst, i), want[i]) << i;
    // Exhausted suspension: stops when queue 2 (two elements) runs out.
    MrgSort(dst, list, MrgSort4Info(lengths, true, 7, 1));
    uint16_t a, b, c, d;
    GetMrgSortResult(a, b, c, d);
    EXPECT_EQ(a + b + c, 7);  // 9, 8, 7, 5, 5, 5(q1), 5(q2): q2 exhausted
    EXPECT_EQ(c, 2);
    EXPECT_EQ(d, 0);
    EXPECT_TWIN_ERROR(MrgSort(dst, list, MrgSort4Info(lengths, false, 5, 1)), ErrorKind::run_failed, "validBit 5");
}

TEST_F(AdvancedApiTest, FullSortExtractAndTheSortLengths) {
    const uint32_t n = 96;
    auto scores = ub<float>(n, 0);
    auto sorted = ub<float>(2 * n, 1024);
    auto tmp = ub<float>(2 * n, 2048);
    auto index = ub<uint32_t>(n, 3072);
    auto values = ub<float>(n, 4096);
    auto indices = ub<uint32_t>(n, 5120);
    for (uint32_t i = 0; i < n; ++i) {
        scores.data()[i] = float((i * 37) % 11);  // many ties across the groups of 32
        index.data()[i] = i;
    }
    LocalTensor<float> concat;
    Concat(concat, scores, tmp, int32_t(n / 16));
    EXPECT_EQ(concat.data(), scores.data());  // A2: the scores are sorted where they are
    Sort<float, true>(sorted, concat, index, tmp, int32_t(n / 32));
    Extract(values, indices, sorted, int32_t(n / 32));
    std::vector<uint32_t> order(n);
    for (uint32_t i = 0; i < n; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return scores.data()[a] > scores.data()[b]; });
    for (uint32_t i = 0; i < n; ++i) {
        ASSERT_EQ(indices.data()[i], order[i]) << i;
        ASSERT_EQ(values.data()[i], scores.data()[order[i]]);
    }
    EXPECT_EQ(GetSortLen<float>(128), 256u);
    EXPECT_EQ(GetSortLen<half>(128), 512u);
    EXPECT_EQ(GetSortOffset<float>(3), 6u);
    // The advanced merge with sortedNum.
    auto q = ub<float>(64, 8192);
    auto dst = ub<float>(64, 9216);
    put_queue(q[0], {4, 3}, 0);
    put_queue(q[8], {5, 1}, 10);
    MrgSortSrcList<float> list(q[0], q[8], q[0], q[0]);
    const uint16_t lengths[4] = {2, 2, 0, 0};
    uint32_t sorted_num[4] = {9, 9, 9, 9};
    MrgSort<float, true>(dst, list, lengths, sorted_num, 3, 1);
    EXPECT_EQ(sorted_num[0], 2u);  // 5, 4, 3: queue 0 runs out first
    EXPECT_EQ(sorted_num[1], 1u);
}

TEST_F(AdvancedApiTest, FullSortTemporaryBufferIsChecked) {
    strict_ub();
    auto scores = ub<float>(64, 0);
    auto sorted = ub<float>(128, 1024);
    auto tmp = ub<float>(64, 2048);
    auto index = ub<uint32_t>(64, 4096);
    fill(scores, 64, 0, 1);
    for (uint32_t i = 0; i < 64; ++i) index.data()[i] = i;
    EXPECT_TWIN_ERROR((Sort<float, true>(sorted, scores, index, tmp, 2)), ErrorKind::run_failed, "temporary buffer");
}

TEST_F(AdvancedApiTest, RegionProposalsConcatSortMergeAndExtract) {
    auto x = ub<half>(32, 0);
    auto proposals = ub<half>(256, 1024);
    auto merged = ub<half>(256, 2048);
    auto out = ub<half>(32, 3072);
    const float v[32] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4, 6, 2, 6, 4, 3, 3, 8, 3, 2, 7, 9, 5};
    for (uint32_t i = 0; i < 32; ++i) x.data()[i] = half(v[i]);
    for (uint32_t i = 0; i < 256; ++i) proposals.data()[i] = half(0.0f);
    ProposalConcat(proposals, x, 2, 4);
    for (uint32_t i = 0; i < 32; ++i) x.data()[i] = half(float(i));
    ProposalConcat(proposals, x, 2, 0);  // x1 carries the original position
    RpSort16(proposals, proposals, 2);
    for (uint32_t i = 0; i + 1 < 16; ++i) {
        const float a = proposals.data()[i * 8 + 4], b = proposals.data()[(i + 1) * 8 + 4];
        EXPECT_GE(a, b);
        if (a == b) {
            EXPECT_LT(float(proposals.data()[i * 8]), float(proposals.data()[(i + 1) * 8]));  // stable
        }
    }
    MrgSortSrcList<half> list(proposals[0], proposals[128], proposals[0], proposals[0]);
    const uint16_t lengths[4] = {16, 16, 0, 0};
    MrgSort4(merged, list, MrgSort4Info(lengths, false, 3, 1));
    ProposalExtract(out, merged, 2, 4);
    std::vector<float> want(v, v + 32);
    std::stable_sort(want.begin(), want.end(), std::greater<float>());
    for (uint32_t i = 0; i < 32; ++i) EXPECT_EQ(float(out.data()[i]), want[i]) << i;
    // validBit 1 with suspension copies the first queue (top_k_v3's first block).
    for (uint32_t i = 0; i < 256; ++i) merged.data()[i] = half(-1.0f);
    const uint16_t k4[4] = {4, 16, 16, 16};
    MrgSort4(merged, MrgSortSrcList<half>(proposals, proposals, proposals, proposals), MrgSort4Info(k4, true, 1, 1));
    for (uint32_t i = 0; i < 32; ++i) EXPECT_EQ(merged.data()[i].bits, proposals.data()[i].bits);
    EXPECT_EQ(float(merged.data()[32]), -1.0f);
}

// ---------------------------------------------------------------- quantization

TEST_F(AdvancedApiTest, SetDeqScaleAcceptsOneOnly) {
    SetDeqScale(half(1.0f));
    EXPECT_TWIN_ERROR(SetDeqScale(half(2.0f)), ErrorKind::run_failed, "DEQSCALE of 1");
}

TEST_F(AdvancedApiTest, AscendQuantRoundsHalfToEvenInHalfArithmeticAndSaturates) {
    auto src = ub<float>(64, 0);
    auto tmp = ub<uint8_t>(512, 1024);
    auto scale = ub<float>(8, 2048);
    auto dst = ub<int8_t>(64, 4096);
    const float xs[8] = {1.25f, 1.75f, -1.25f, 100.0f, -100.0f, 0.1f, 0.3f, -0.7f};
    for (uint32_t i = 0; i < 8; ++i) src.data()[i] = xs[i];
    AscendQuant<float>(dst, src, tmp, 2.0f, 0.0f, 8);
    const int8_t want[8] = {2, 4, -2, 127, -128, 0, 1, -1};  // 2.5 -> 2, 3.5 -> 4, -2.5 -> -2
    for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(dst.data()[i], want[i]) << i;
    // Per channel: element e takes scale[e % 4] and the offset.
    for (uint32_t i = 0; i < 4; ++i) scale.data()[i] = float(i + 1);
    for (uint32_t i = 0; i < 8; ++i) src.data()[i] = 1.5f;
    AscendQuant<float>(dst, src, tmp, scale, 0.5f, 4, 8);
    for (uint32_t i = 0; i < 8; ++i) {
        const float h = float(half(float(half(1.5f * float(i % 4 + 1))) + 0.5f));
        EXPECT_EQ(dst.data()[i], int8_t(std::nearbyint(h))) << i;
    }
    strict_ub();
    auto s2 = ub<float>(64, 0);
    auto small = ub<uint8_t>(256, 1024);
    auto d2 = ub<int8_t>(64, 4096);
    EXPECT_TWIN_ERROR(AscendQuant<float>(d2, s2, small, 1.0f, 0.0f, 8), ErrorKind::run_failed, "temporary buffer");
}

TEST_F(AdvancedApiTest, AscendDequantMultipliesInFloatAndLeavesTheRowTail) {
    auto src = ub<int32_t>(32, 0);
    auto scale = ub<float>(8, 1024);
    auto dst = ub<float>(32, 2048);
    auto tmp = ub<uint8_t>(4096, 4096);
    for (uint32_t i = 0; i < 32; ++i) src.data()[i] = int32_t(i) * 1000003 - 7;
    for (uint32_t i = 0; i < 8; ++i) scale.data()[i] = 0.001f * float(i + 1);
    for (uint32_t i = 0; i < 32; ++i) dst.data()[i] = -9.0f;
    AscendDequant(dst, src, scale, tmp, DequantParams{4, 8, 5});
    for (uint32_t r = 0; r < 4; ++r)
        for (uint32_t j = 0; j < 8; ++j) {
            const float want = j < 5 ? float(src.data()[r * 8 + j]) * scale.data()[j] : -9.0f;
            EXPECT_EQ(dst.data()[r * 8 + j], want) << r << "," << j;
        }
    // Scalar scale to bfloat16_t; {1, 32, 16} is two rows of 16 in the single-row mode.
    auto bdst = ub<bfloat16_t>(64, 8192);
    AscendDequant(bdst, src, 0.5f, tmp, DequantParams{1, 32, 16});
    for (uint32_t i = 0; i < 32; ++i) EXPECT_EQ(bdst.data()[i].bits, bfloat16_t(float(src.data()[i]) * 0.5f).bits) << i;
}

TEST_F(AdvancedApiTest, AscendAntiQuantPerTensorAndPerChannel) {
    auto src = ub<int8_t>(64, 0);
    auto dst = ub<half>(64, 1024);
    auto scale = ub<half>(16, 2048);
    auto offset = ub<half>(16, 3072);
    auto tmp = ub<uint8_t>(4096, 4096);
    for (uint32_t i = 0; i < 64; ++i) src.data()[i] = int8_t(int(i * 7) % 256 - 128);
    AscendAntiQuant<int8_t, half, false>(dst, src, half(3.0f), half(0.1f), tmp, 4);
    for (uint32_t i = 0; i < 64; ++i) {
        const float t = float(half(float(src.data()[i]) + 3.0f));
        EXPECT_EQ(dst.data()[i].bits, half(t * float(half(0.1f))).bits) << i;
    }
    // Per channel, src [K=4, N=16], parameters [1, 16].
    for (uint32_t j = 0; j < 16; ++j) {
        scale.data()[j] = half(0.5f + 0.25f * float(j));
        offset.data()[j] = half(-float(j));
    }
    AscendAntiQuant<int8_t, half, false>(dst, src, offset, scale, tmp, 4);
    for (uint32_t i = 0; i < 64; ++i) {
        const uint32_t j = i % 16;
        const float t = float(half(float(src.data()[i]) + float(offset.data()[j])));
        EXPECT_EQ(dst.data()[i].bits, half(t * float(scale.data()[j])).bits) << i;
    }
}

// ---------------------------------------------------------------- reductions and select

TEST_F(AdvancedApiTest, GetAccValReturnsTheFloatBitsOfTheLastReduceSum) {
    auto src = ub<float>(64, 0);
    auto dst = ub<float>(8, 1024);
    for (uint32_t i = 0; i < 64; ++i) src.data()[i] = 0.5f * float(i);
    ReduceSum(dst, src, dst, 64);
    const uint64_t acc = GetAccVal();
    float v;
    const uint32_t low = uint32_t(acc);
    std::memcpy(&v, &low, 4);
    EXPECT_EQ(v, 1008.0f);
    EXPECT_EQ(GetAccVal<float>(), 1008.0f);
    EXPECT_EQ(GetReduceRepeatSumSpr<float>(), 1008.0f);
}

TEST_F(AdvancedApiTest, SumAndMeanOverTheValidColumns) {
    auto src = ub<half>(48, 0);
    auto dst = ub<half>(16, 1024);
    auto tmp = ub<uint8_t>(1024, 2048);
    for (uint32_t i = 0; i < 48; ++i) src.data()[i] = half(i % 16 < 5 ? 0.1f * float(i) : 1000.0f);  // padding must not count
    Sum(dst, src, tmp, SumParams{3, 16, 5});
    for (uint32_t r = 0; r < 3; ++r) {
        double s = 0;
        for (uint32_t j = 0; j < 5; ++j) s += double(float(src.data()[r * 16 + j]));
        EXPECT_EQ(dst.data()[r].bits, nearest_half(s).bits) << r;
    }
    Mean<half, float>(dst, src, tmp, MeanParams{3, 16, 5});
    for (uint32_t r = 0; r < 3; ++r) {
        double s = 0;
        for (uint32_t j = 0; j < 5; ++j) s += double(float(src.data()[r * 16 + j]));
        EXPECT_EQ(dst.data()[r].bits, nearest_half(s / 5).bits) << r;
    }
    uint32_t mx = 0, mn = 0;
    AscendC::GetSumMaxMinTmpSize(5, 2, false, mx, mn);
    EXPECT_EQ(mn, 32u);  // one repeat, a block of halves
    AscendC::GetMeanMaxMinTmpSize(5, 2, 4, false, mx, mn);
    EXPECT_EQ(mn, 32u + 16 * 4);
    EXPECT_TWIN_ERROR(Sum(dst, src, tmp, SumParams{3, 12, 5}), ErrorKind::run_failed, "32-byte");
}

TEST_F(AdvancedApiTest, SelectWithBytesMaskBothFormsAndLongerMaskRows) {
    auto src = ub<float>(32, 0);
    auto dst = ub<float>(32, 1024);
    auto tmp = ub<uint8_t>(1024, 2048);
    auto mask = ub<uint8_t>(64, 4096);
    fill(src, 32, -5, 5, 31);
    for (uint32_t i = 0; i < 64; ++i) mask.data()[i] = uint8_t((i * 5) % 3 == 0 ? 0 : i);
    SelectWithBytesMaskShapeInfo info;
    info.firstAxis = 2;
    info.srcLastAxis = 16;
    info.maskLastAxis = 32;
    SelectWithBytesMask(dst, src, 7.5f, mask, tmp, info);
    for (uint32_t r = 0; r < 2; ++r)
        for (uint32_t j = 0; j < 16; ++j) {
            const bool zero = mask.data()[r * 32 + j] == 0;
            EXPECT_EQ(dst.data()[r * 16 + j], zero ? src.data()[r * 16 + j] : 7.5f) << r << "," << j;
        }
    Select(dst, -1.0f, src, mask, tmp, info);
    for (uint32_t r = 0; r < 2; ++r)
        for (uint32_t j = 0; j < 16; ++j) {
            const bool zero = mask.data()[r * 32 + j] == 0;
            EXPECT_EQ(dst.data()[r * 16 + j], zero ? -1.0f : src.data()[r * 16 + j]) << r << "," << j;
        }
    strict_ub();
    auto s2 = ub<float>(32, 0);
    auto d2 = ub<float>(32, 1024);
    auto small = ub<uint8_t>(128, 2048);
    auto m2 = ub<uint8_t>(64, 4096);
    EXPECT_TWIN_ERROR(SelectWithBytesMask(d2, s2, 1.0f, m2, small, info), ErrorKind::run_failed, "temporary buffer");
}
