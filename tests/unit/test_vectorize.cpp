// Vector fills against scalar element loops (agent/vectorize.h): the de-optimization writes the
// loop, the restore turns such loops (its own and the ones published code writes) back into one
// vector instruction, and anything else is left alone.
#include <gtest/gtest.h>

#include "agent/vectorize.h"

namespace ascendopt {
namespace {

CandidateFiles kernel(const std::string& text) { return {{"op_kernel/k.cpp", text}, {"op_host/h.cpp", "Duplicate(a, b, c);\n"}}; }

TEST(Vectorize, AThreeArgumentDuplicateBecomesAScalarLoopAndBack) {
    const std::string before = "AscendC::LocalTensor<half> tmp;\nvoid F() {\n    AscendC::Duplicate<half>(tmp[8], (half)0, this->len * 2);\n}\n";
    auto scalar = scalar_fills(kernel(before));
    ASSERT_TRUE(scalar);
    const std::string& k = scalar->at("op_kernel/k.cpp");
    EXPECT_NE(k.find("for (int32_t fillIdx = 0; fillIdx < static_cast<int32_t>(this->len * 2); ++fillIdx) { tmp[8].SetValue(fillIdx, (half)0); }"),
              std::string::npos)
        << k;
    EXPECT_EQ(scalar->at("op_host/h.cpp"), "Duplicate(a, b, c);\n") << "host code is not kernel code";
    auto restored = vector_fills(*scalar);
    ASSERT_TRUE(restored);
    EXPECT_NE(restored->at("op_kernel/k.cpp").find("AscendC::Duplicate<half>(tmp[8], (half)0, this->len * 2);"), std::string::npos)
        << restored->at("op_kernel/k.cpp");
}

TEST(Vectorize, ADuplicateWithAMaskIsLeftAlone) {
    EXPECT_FALSE(scalar_fills(kernel("void F() { Duplicate(t, 0.0f, mask, repeat, 1, 8); }\n")));
}

TEST(Vectorize, AnIndexLoopBecomesCreateVecIndex) {
    const std::string text =
        "AscendC::LocalTensor<float> a, b, idx_t;\nvoid F() {\n    for (int32_t i = 0; i < this->n; i++)\n    {\n      idx_t.SetValue(i, (float)i);\n    }\n}\n";
    auto v = vector_fills(kernel(text));
    ASSERT_TRUE(v);
    EXPECT_NE(v->at("op_kernel/k.cpp").find("AscendC::CreateVecIndex(idx_t, static_cast<float>(0), this->n);"), std::string::npos)
        << v->at("op_kernel/k.cpp");
}

TEST(Vectorize, AFillTheScalarUnitReadsBackIsFollowedByABarrier) {
    const std::string text = "LocalTensor<int32_t> t;\nvoid F() {\n    for (uint32_t i = 0; i < n; ++i) { t.SetValue(i, 7); }\n    x = t.GetValue(2);\n}\n";
    auto v = vector_fills(kernel(text));
    ASSERT_TRUE(v);
    EXPECT_NE(v->at("op_kernel/k.cpp").find("AscendC::Duplicate<int32_t>(t, 7, n); AscendC::PipeBarrier<PIPE_ALL>();"), std::string::npos)
        << v->at("op_kernel/k.cpp");
    auto unread = vector_fills(kernel("LocalTensor<int32_t> t;\nvoid F() { for (uint32_t i = 0; i < n; ++i) { t.SetValue(i, 7); } }\n"));
    ASSERT_TRUE(unread);
    EXPECT_EQ(unread->at("op_kernel/k.cpp").find("PipeBarrier"), std::string::npos);
}

TEST(Vectorize, LoopsThatAreNotFillsStay) {
    // The value depends on the index otherwise than by a cast; an unknown tensor type; a second statement.
    EXPECT_FALSE(vector_fills(kernel("LocalTensor<float> t;\nvoid F() { for (int i = 0; i < n; i++) { t.SetValue(i, i * 2.0f); } }\n")));
    EXPECT_FALSE(vector_fills(kernel("void F() { for (int i = 0; i < n; i++) { g.SetValue(i, 0); } }\n")));
    EXPECT_FALSE(vector_fills(kernel("LocalTensor<float> t;\nvoid F() { for (int i = 0; i < n; i++) { t.SetValue(i, 0); Other(); } }\n")));
}

}  // namespace
}  // namespace ascendopt
