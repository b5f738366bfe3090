// Per-SoC prototypes: AICore().AddConfig(soc, config) with a config that declares its own
// parameters makes those the operator's parameters on that SoC, both in the twin's OpDef
// (what the harness launches with) and in the evaluator's reading of the describe document
// (which dtype combinations cases may use); and the platform configuration host tilings read.
#include <gtest/gtest.h>

#include "ascendopt_twin/host/op_def.h"
#include "ascendopt_twin/host/platform.h"
#include "eval/opdef.h"
#include "test_soc.h"

namespace {

// Top level: x and y in float16 and float; the 910B configuration adds bfloat16 and makes the
// index input optional; 310P gets a configuration without parameters.
class PerSocOp : public ops::OpDef {
public:
    explicit PerSocOp(const char* name) : OpDef(name) {
        Input("x").DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
        Input("index").DataType({ge::DT_INT32, ge::DT_INT32});
        Output("y").DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
        ops::OpAICoreConfig c910b;
        c910b.Input("x").DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16});
        c910b.Input("index").ParamType(ops::OPTIONAL).DataType({ge::DT_INT32, ge::DT_INT32, ge::DT_INT32});
        c910b.Output("y").DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16});
        AICore().AddConfig("ascend910b", c910b);
        ops::OpAICoreConfig c310p("ascend310p");
        c310p.DynamicFormatFlag(true);
        AICore().AddConfig("ascend310p", c310p);
        AICore().AddConfig("ascend910");
    }
};

TEST(OpDefPerSoc, ConfigParametersReplaceTheTopLevelOnes) {
    const PerSocOp op("PerSocOp");
    const ops::OpDef b = op.for_soc("ascend910b");
    ASSERT_EQ(b.inputs().size(), 2u);
    EXPECT_EQ(b.inputs()[0].name(), "x");
    EXPECT_EQ(b.inputs()[0].dtypes().size(), 3u);
    EXPECT_EQ(b.inputs()[0].dtypes()[2], ge::DT_BF16);
    EXPECT_EQ(b.inputs()[1].option(), ops::OPTIONAL);
    ASSERT_EQ(b.outputs().size(), 1u);
    EXPECT_EQ(b.outputs()[0].dtypes().size(), 3u);
    // The registered definition itself is unchanged.
    EXPECT_EQ(op.inputs()[0].dtypes().size(), 2u);
}

TEST(OpDefPerSoc, OtherSocsKeepTheTopLevelDefinition) {
    const PerSocOp op("PerSocOp");
    for (const char* soc : {"ascend310p", "ascend910", "ascend910_93", ""}) {
        const ops::OpDef d = op.for_soc(soc);
        EXPECT_EQ(d.inputs()[0].dtypes().size(), 2u) << soc;
        EXPECT_EQ(d.inputs()[1].option(), ops::REQUIRED) << soc;
    }
    EXPECT_EQ(op.aicore().socs().size(), 3u);
}

nlohmann::json param(const std::string& name, std::vector<std::string> dtypes) {
    return {{"name", name}, {"optional", false}, {"dynamic", false}, {"shape_from_kernel", false}, {"dtypes", dtypes}};
}

TEST(OpDefPerSoc, EvaluatorReadsTheSocsParameters) {
    const nlohmann::json describe = {
        {"ops",
         {{{"type", "DiagLike"},
           {"inputs", {param("x", {"float16", "float32"})}},
           {"outputs", {param("y", {"float16", "float32"})}},
           {"attrs", nlohmann::json::array()},
           {"soc_params",
            {{"ascend910b", {{"inputs", {param("x", {"float16", "float32", "bfloat16"})}}, {"outputs", {param("y", {"float16", "float32", "bfloat16"})}}}}}}}}}};
    auto b = ascendopt::parse_opdef(describe, "DiagLike", "ascend910b");
    ASSERT_TRUE(b) << b.error().message;
    EXPECT_EQ(b->combinations(), 3u);
    EXPECT_EQ(b->inputs[0].dtypes[2], ascendopt::DType::bf16);
    auto p = ascendopt::parse_opdef(describe, "DiagLike", "ascend310p");
    ASSERT_TRUE(p) << p.error().message;
    EXPECT_EQ(p->combinations(), 2u);
    auto none = ascendopt::parse_opdef(describe, "DiagLike");
    ASSERT_TRUE(none);
    EXPECT_EQ(none->combinations(), 2u);
}

}  // namespace

// Attributes as tiling reads them: an untyped ContinuousVector of a list-of-float attribute
// holds the floats (the upsample tilings reinterpret GetData() as float*).
#include "ascendopt_twin/host/gert_attrs.h"

TEST(RuntimeAttrs, UntypedListsHoldTheirOwnElementType) {
    gert::RuntimeAttrs attrs;
    gert::AttrValue floats;
    floats.kind = gert::AttrValue::Kind::list_f32;
    floats.lf = {0.5f, 2.0f};
    attrs.push(floats);
    gert::AttrValue ints;
    ints.kind = gert::AttrValue::Kind::list_i64;
    ints.li = {3, 4, 5};
    attrs.push(ints);
    const auto* f = attrs.GetAttrPointer<gert::ContinuousVector>(0);
    ASSERT_NE(f, nullptr);
    ASSERT_EQ(f->GetSize(), 2u);
    EXPECT_EQ(static_cast<const float*>(f->GetData())[1], 2.0f);
    const auto* i = attrs.GetAttrPointer<gert::ContinuousVector>(1);
    ASSERT_NE(i, nullptr);
    EXPECT_EQ(static_cast<const int64_t*>(i->GetData())[2], 5);
    EXPECT_EQ(attrs.GetAttrPointer<gert::TypedContinuousVector<int64_t>>(0), nullptr);
}

// The platform configuration host tilings read: the cube tilings size bias tiles by
// AICoreSpec/bt_size (without it they divided by zero), next to the L0 and L1 sizes.
TEST(PlatformInfo, AiCoreSpecGivesTheOnChipSizes) {
    const ascendopt_twin::SocSpec& soc = ascendopt_twin::testing::test_soc();
    fe::PlatFormInfos info(&soc);
    std::string value;
    ASSERT_TRUE(info.GetPlatformRes("AICoreSpec", "bt_size", value));
    EXPECT_EQ(value, std::to_string(soc.bt_bytes));
    EXPECT_EQ(value, "1024");
    ASSERT_TRUE(info.GetPlatformRes("AICoreSpec", "l0_c_size", value));
    EXPECT_EQ(value, "131072");
    EXPECT_FALSE(info.GetPlatformRes("AICoreSpec", "no_such_key", value));
}
