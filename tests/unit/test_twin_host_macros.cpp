// The host-side declaration macros of register/tilingdata_base.h in every form the published
// tiling headers write them: END_TILING_DATA_DEF with and without its semicolon, and a
// registration repeated in one translation unit. A form the macros did not accept fails this
// file's compilation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"
#include "twin_rt.h"

namespace macro_forms {
// The documented form: END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(WithSemicolon)
TILING_DATA_FIELD_DEF(uint32_t, n);
END_TILING_DATA_DEF;

// The semicolon left out (embedding_dense_grad_v2, avg_pool3_d_grad), fields without theirs.
BEGIN_TILING_DATA_DEF(WithoutSemicolon)
TILING_DATA_FIELD_DEF(uint64_t, rows)
TILING_DATA_FIELD_DEF_ARR(int32_t, 3, dims)
END_TILING_DATA_DEF

REGISTER_TILING_DATA_CLASS(MacroFormsWithoutSemicolonOp, WithoutSemicolon)

// The same registration twice in one translation unit (a family header and the operator's own).
REGISTER_TILING_DATA_CLASS(MacroFormsRepeated, WithSemicolon)
REGISTER_TILING_DATA_CLASS(MacroFormsRepeated, WithSemicolon);

// SetDataPtr: a class with a nested tiling class and a plain struct field.
BEGIN_TILING_DATA_DEF(BoundInner)
TILING_DATA_FIELD_DEF(uint32_t, a);
TILING_DATA_FIELD_DEF(uint32_t, b);
END_TILING_DATA_DEF;
struct PlainPart {
    int32_t x;
    int32_t y;
};
BEGIN_TILING_DATA_DEF(BoundOuter)
TILING_DATA_FIELD_DEF(uint64_t, n);
TILING_DATA_FIELD_DEF_STRUCT(BoundInner, inner);
TILING_DATA_FIELD_DEF_STRUCT(PlainPart, plain);
END_TILING_DATA_DEF;
}  // namespace macro_forms

namespace optiling {
// Tiling sources name std::map unqualified (ge_glu_grad_v2), as CANN's headers let them.
static const map<ge::DataType, int32_t> k_buffers_per_dtype = {{ge::DT_FLOAT, 4}, {ge::DT_FLOAT16, 6}};
}  // namespace optiling

namespace {

size_t registrations_of(const std::string& op) {
    const auto& classes = ascendopt_twin::registered_tiling_classes();
    return size_t(std::count_if(classes.begin(), classes.end(), [&](const ascendopt_twin::TilingClass& c) { return c.op_type == op; }));
}

TEST(TilingDataMacros, EndWithoutSemicolonDeclaresTheSameClass) {
    macro_forms::WithoutSemicolon t;
    t.set_rows(7);
    const int32_t dims[3] = {1, 2, 3};
    t.set_dims(dims);
    EXPECT_EQ(t.get_rows(), 7u);
    EXPECT_EQ(t.get_dims()[2], 3);
    EXPECT_EQ(t.GetDataSize(), sizeof(macro_forms::WithoutSemicolon));
    ASSERT_EQ(registrations_of("MacroFormsWithoutSemicolonOp"), 1u);
}

TEST(TilingDataMacros, ARepeatedRegistrationNamesTheSameClassTwice) {
    ASSERT_EQ(registrations_of("MacroFormsRepeated"), 2u);
    for (const auto& c : ascendopt_twin::registered_tiling_classes())
        if (c.op_type == "MacroFormsRepeated") {
            EXPECT_EQ(c.cpp_name, "macro_forms::WithSemicolon");
            EXPECT_EQ(c.size, sizeof(macro_forms::WithSemicolon));
        }
}

}  // namespace

namespace {
TEST(TilingDataMacros, TilingSourcesNameMapUnqualified) {
    EXPECT_EQ(optiling::k_buffers_per_dtype.at(ge::DT_FLOAT16), 6);
}
}  // namespace

#include "register/op_def_registry.h"

namespace {

ge::graphStatus check_support_for_test(const ge::Operator& op, ge::AscendString& result) {
    int64_t dim = 0;
    result = ge::AscendString(op.GetAttr("seq_dim", dim) == ge::GRAPH_SUCCESS ? "supported" : "no seq_dim");
    return ge::GRAPH_SUCCESS;
}

TEST(GraphOperator, AttributesReadBackAsTheTypeTheyWereSetWith) {
    ge::Operator op;
    int64_t seq = -1;
    EXPECT_EQ(op.GetAttr("seq_dim", seq), ge::GRAPH_FAILED);
    EXPECT_EQ(seq, -1) << "left as it was";
    op.SetAttr("seq_dim", int64_t(2)).SetAttr("mode", "fast");
    EXPECT_EQ(op.GetAttr("seq_dim", seq), ge::GRAPH_SUCCESS);
    EXPECT_EQ(seq, 2);
    float f = 0.5f;
    EXPECT_EQ(op.GetAttr("seq_dim", f), ge::GRAPH_FAILED) << "an int64_t attribute is not read as float";
    EXPECT_EQ(f, 0.5f);
    ge::AscendString mode;
    EXPECT_EQ(op.GetAttr("mode", mode), ge::GRAPH_SUCCESS);
    EXPECT_STREQ(mode.GetString(), "fast");
}

TEST(GraphOperator, SetCheckSupportTakesTheDocumentedFunctionType) {
    ops::OpAICoreDef aicore;
    aicore.SetCheckSupport(check_support_for_test);
    ASSERT_EQ(aicore.check_support(), &check_support_for_test);
    ge::Operator op;
    op.SetAttr("seq_dim", int64_t(0));
    ge::AscendString result;
    EXPECT_EQ(aicore.check_support()(op, result), ge::GRAPH_SUCCESS);
    EXPECT_STREQ(result.GetString(), "supported");
}

}  // namespace

namespace {

TEST(GertContext, InstanceCountsAndTheExtendedKernelContextView) {
    gert::IoDesc io;
    io.input_descs.resize(4);
    io.output_descs.resize(3);
    io.input_ir = {gert::AnchorInstanceInfo(0, 3), gert::AnchorInstanceInfo(3, 1)};
    gert::InferShapeContext ctx(&io);
    const gert::AnchorInstanceInfo* list = ctx.GetComputeNodeInfo()->GetInputInstanceInfo(0);
    ASSERT_NE(list, nullptr);
    EXPECT_EQ(list->GetInstanceNum(), 3u);
    EXPECT_EQ(list->GetInstanceNum(), list->GetInstantiationNum());
    // As scatter_list's InferShape reads the output count.
    auto* extended = reinterpret_cast<gert::ExtendedKernelContext*>(&ctx);
    EXPECT_EQ(extended->GetComputeNodeOutputNum(), 3u);
    EXPECT_EQ(extended->GetComputeNodeInputNum(), 4u);
}

}  // namespace

#include "base/alog_pub.h"

namespace {

// CheckLogLevel is a function (the runtime's weak one here), so host sources may define their own.
TEST(HostLog, CheckLogLevelIsTheLibraryFunction) {
    int (*fn)(int, int) = &CheckLogLevel;
    EXPECT_EQ(fn(OP, DLOG_ERROR), 1);
    EXPECT_EQ(fn(OP, DLOG_DEBUG), 0);
}

}  // namespace

namespace {

TEST(TilingDataMacros, SetDataPtrMirrorsTheExternalBuffer) {
    alignas(8) uint8_t buffer[64];
    std::memset(buffer, 0, sizeof(buffer));
    const uint64_t preset = 77;
    std::memcpy(buffer, &preset, sizeof(preset));
    macro_forms::BoundOuter expected;
    {
        macro_forms::BoundOuter t;
        t.set_n(5);  // before the binding: the buffer's contents replace it
        t.SetDataPtr(buffer);
        EXPECT_EQ(t.get_n(), 77u) << "the fields read the buffer";
        t.inner.set_a(11);
        t.inner.set_b(12);
        t.plain.y = -3;  // a plain struct field written directly
        EXPECT_EQ(t.GetDataSize(), sizeof(macro_forms::BoundOuter));
        macro_forms::BoundOuter seen;
        std::memcpy(static_cast<void*>(&seen), buffer, sizeof(seen));
        EXPECT_EQ(seen.inner.get_b(), 12u) << "GetDataSize brings the buffer up to date";
        EXPECT_EQ(seen.plain.y, -3);
        t.set_n(9);  // after the last GetDataSize: the destructor writes it back
        std::memcpy(static_cast<void*>(&expected), static_cast<const void*>(&t), sizeof(t));
    }
    macro_forms::BoundOuter after;
    std::memcpy(static_cast<void*>(&after), buffer, sizeof(after));
    EXPECT_EQ(after.get_n(), 9u);
    EXPECT_EQ(after.inner.get_a(), 11u);
    EXPECT_EQ(std::memcmp(buffer, static_cast<const void*>(&expected), sizeof(expected)), 0);
    EXPECT_EQ(buffer[sizeof(macro_forms::BoundOuter)], 0) << "nothing past the object";
}

}  // namespace
