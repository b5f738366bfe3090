// DataCopy and DataCopyPad between GM and UB: contiguous, strided and padded forms.
#include "twin_fixture.h"

using namespace AscendC;
using ascendopt_twin::testing::TwinCoreTest;

class CopyTest : public TwinCoreTest {};

TEST_F(CopyTest, ContiguousRoundTrip) {
    float* host_in = nullptr;
    float* host_out = nullptr;
    auto in = gm<float>(64, &host_in);
    auto out = gm<float>(64, &host_out);
    for (int i = 0; i < 64; ++i) host_in[i] = float(i) * 0.5f;
    auto t = ub<float>(64);
    DataCopy(t, in, 64);
    DataCopy(out, t, 64);
    for (int i = 0; i < 64; ++i) ASSERT_EQ(host_out[i], float(i) * 0.5f);
}

TEST_F(CopyTest, StridedBlocksSkipGaps) {
    int32_t* host = nullptr;
    auto in = gm<int32_t>(128, &host);
    for (int i = 0; i < 128; ++i) host[i] = i;
    auto t = ub<int32_t>(128);
    for (int i = 0; i < 128; ++i) t.data()[i] = -1;
    // 3 blocks of 1 x 32 bytes (8 ints); skip 1 block in GM, leave 2 blocks of gap in UB.
    DataCopy(t, in, DataCopyParams(3, 1, 1, 2));
    for (int b = 0; b < 3; ++b)
        for (int e = 0; e < 8; ++e) ASSERT_EQ(t.data()[b * 24 + e], b * 16 + e);
    EXPECT_EQ(t.data()[8], -1);
}

// DataCopyPad GM -> UB, as documented: with no left/right padding the 32-byte tail ("dummy")
// repeats the row's first element whatever isPad says; with padding, pads and dummy hold
// paddingValue. GM gaps are bytes, UB gaps 32-byte blocks.
TEST_F(CopyTest, PadInFillsBlockTailAndStridesInBytes) {
    half* host = nullptr;
    auto in = gm<half>(100, &host);
    for (int i = 0; i < 100; ++i) host[i] = half(float(i));
    auto t = ub<half>(96);
    // 2 rows of 5 halves (10 bytes), 4 bytes apart in GM; each UB row padded to 16 halves,
    // one extra 32-byte block between rows.
    DataCopyPad(t, in, DataCopyExtParams(2, 10, 4, 1, 0), DataCopyPadExtParams<half>(true, 0, 0, half(-7.0f)));
    for (int e = 0; e < 5; ++e) {
        ASSERT_EQ(float(t.data()[e]), float(e));
        ASSERT_EQ(float(t.data()[32 + e]), float(7 + e));  // second row starts at GM byte 14 (element 7)
    }
    for (int e = 5; e < 16; ++e) {
        ASSERT_EQ(float(t.data()[e]), 0.0f) << e;        // row 0's first element
        ASSERT_EQ(float(t.data()[32 + e]), 7.0f) << e;   // row 1's first element
    }
    // Two halves of right padding: pad and dummy hold paddingValue.
    DataCopyPad(t, in, DataCopyExtParams(1, 10, 0, 0, 0), DataCopyPadExtParams<half>(true, 0, 2, half(-7.0f)));
    for (int e = 5; e < 16; ++e) ASSERT_EQ(float(t.data()[e]), -7.0f) << e;
    // Left padding shifts the data.
    DataCopyPad(t, in, DataCopyExtParams(1, 10, 0, 0, 0), DataCopyPadExtParams<half>(true, 3, 0, half(-1.0f)));
    EXPECT_EQ(float(t.data()[2]), -1.0f);
    EXPECT_EQ(float(t.data()[3]), 0.0f);
    EXPECT_EQ(float(t.data()[7]), 4.0f);
}

TEST_F(CopyTest, PadOutWritesExactBytes) {
    float* host = nullptr;
    auto out = gm<float>(20, &host);
    for (int i = 0; i < 20; ++i) host[i] = -1;
    auto t = ub<float>(32);
    for (int i = 0; i < 32; ++i) t.data()[i] = float(i);
    // 2 rows of 3 floats; UB rows 8 floats apart (one block), GM rows 8 bytes (2 floats) apart.
    DataCopyPad(out, t, DataCopyExtParams(2, 12, 0, 8, 0));
    const float expected[] = {0, 1, 2, -1, -1, 8, 9, 10, -1};
    for (int i = 0; i < 9; ++i) ASSERT_EQ(host[i], expected[i]) << i;
}

TEST_F(CopyTest, ReadsMayRoundUpToTheBlockButSeeNoData) {
    float* host = nullptr;
    auto in = gm<float>(3, &host);
    for (int i = 0; i < 3; ++i) host[i] = 1.0f;
    auto t = ub<float>(8);
    DataCopy(t, in, 8);  // legal: 8 floats = one block, the buffer holds 3
    EXPECT_EQ(t.data()[2], 1.0f);
    EXPECT_TRUE(std::isnan(t.data()[3])) << "bytes past the end read as 0xFF, not as zeros";
}

// GlobalTensor::operator()(i) reads and assigns element i (GetValue / SetValue, GM-checked).
TEST_F(CopyTest, GlobalElementsReadAndAssignByCall) {
    float* host = nullptr;
    auto g = gm<float>(8, &host);
    for (int i = 0; i < 8; ++i) host[i] = float(i);
    const float v = g(3);
    EXPECT_EQ(v, 3.0f);
    g(5) = 42;
    g(6) = g(2);
    EXPECT_EQ(host[5], 42.0f);
    EXPECT_EQ(host[6], 2.0f);
    EXPECT_EQ(int32_t(g(7)), 7);
}

// Which output bytes a kernel wrote (GmSpace::track_writes): the rows of a strided copy count,
// its gaps do not, though the whole range is checked before the first row is written; a
// scalar store counts its element.
TEST_F(CopyTest, WritesAreCountedByteByByteAndGapsAreNot) {
    auto out = gm<int32_t>(64);
    m_gm->track_writes(reinterpret_cast<const uint8_t*>(out.address()));
    auto t = ub<int32_t>(64);
    EXPECT_EQ(m_gm->unwritten(reinterpret_cast<const uint8_t*>(out.address())).bytes, 256u);
    // 3 rows of one 32-byte block (8 ints), one block of gap between them in GM.
    DataCopy(out, t, DataCopyParams(3, 1, 0, 1));
    auto u = m_gm->unwritten(reinterpret_cast<const uint8_t*>(out.address()));
    EXPECT_EQ(u.bytes, 256u - 3 * 32);
    EXPECT_EQ(u.first_byte, 32u);  // the first gap
    out.SetValue(8, 7);            // element 8 is the first gap's first int
    u = m_gm->unwritten(reinterpret_cast<const uint8_t*>(out.address()));
    EXPECT_EQ(u.bytes, 256u - 3 * 32 - 4);
    EXPECT_EQ(u.first_byte, 36u);
    DataCopy(out, t, 64);
    EXPECT_EQ(m_gm->unwritten(reinterpret_cast<const uint8_t*>(out.address())).bytes, 0u);
}
