// The aclnn API derived from an OpDef (src/npu/aclnn_signature.cpp): the call order and C types
// of the convention, and a header that compiles against the ACL headers (the twin's here).
#include <gtest/gtest.h>

#include <fstream>

#include "npu/aclnn_signature.h"
#include "npu/op_prototype.h"
#include "support/scratch_test.h"
#include "util/subprocess.h"

namespace ascendopt {
namespace {

namespace fs = std::filesystem;

ParamInfo param(const std::string& name, bool optional = false, bool dynamic = false) {
    ParamInfo p;
    p.name = name;
    p.optional = optional;
    p.dynamic = dynamic;
    p.dtypes = {DType::f32};
    return p;
}

AttrInfo attr(const std::string& name, const std::string& kind, bool required) {
    return AttrInfo{name, kind, required, required ? nlohmann::json() : nlohmann::json(0)};
}

// An operator with one of everything: a dynamic input, an optional one, an input it updates in
// place, attributes of every supported kind, and a separate output.
OpDefInfo everything_op() {
    OpDefInfo op;
    op.type = "ScaledUpdateV2";
    op.inputs = {param("var"), param("grads", false, true), param("bias", true)};
    op.attrs = {attr("alpha", "float", true), attr("steps", "int", false), attr("nesterov", "bool", false),
                attr("mode", "str", false), attr("axes", "list_int", false), attr("weights", "list_float", false),
                attr("mask", "list_bool", false)};
    op.outputs = {param("var"), param("norm")};
    return op;
}

std::vector<std::string> names_of(const AclnnSignature& sig) {
    std::vector<std::string> out;
    for (const auto& p : sig.params) out.push_back(p.name);
    return out;
}

TEST(AclnnSignature, NamesFollowTheOperatorType) {
    EXPECT_EQ(op_snake_case("AddCustom"), "add_custom");
    EXPECT_EQ(op_snake_case("GeluQuant"), "gelu_quant");
    EXPECT_EQ(op_snake_case("Exp"), "exp");
    OpDefInfo op;
    op.type = "AddCustom";
    op.inputs = {param("x"), param("y")};
    op.outputs = {param("z")};
    auto sig = aclnn_signature(op);
    ASSERT_TRUE(sig) << sig.error().message;
    EXPECT_EQ(sig->function, "aclnnAddCustom");
    EXPECT_EQ(sig->header, "aclnn_add_custom.h");
    EXPECT_EQ(names_of(*sig), (std::vector<std::string>{"x", "y", "z"}));
    EXPECT_NE(aclnn_header(*sig).find("aclnnStatus aclnnAddCustomGetWorkspaceSize(const aclTensor *x, const aclTensor *y, "
                                      "const aclTensor *z, uint64_t *workspaceSize, aclOpExecutor **executor);"),
              std::string::npos)
        << aclnn_header(*sig);
    EXPECT_NE(aclnn_header(*sig).find("aclnnStatus aclnnAddCustom(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, "
                                      "aclrtStream stream);"),
              std::string::npos);
}

TEST(AclnnSignature, InputsThenAttributesThenOutputsWithTheirCTypes) {
    auto sig = aclnn_signature(everything_op());
    ASSERT_TRUE(sig) << sig.error().message;
    EXPECT_EQ(names_of(*sig), (std::vector<std::string>{"varRef", "grads", "biasOptional", "alpha", "stepsOptional", "nesterovOptional",
                                                        "modeOptional", "axesOptional", "weightsOptional", "maskOptional", "norm"}));
    std::vector<std::string> types;
    for (const auto& p : sig->params) types.push_back(p.c_type);
    EXPECT_EQ(types, (std::vector<std::string>{"const aclTensor *", "const aclTensorList *", "const aclTensor *", "double", "int64_t", "bool",
                                               "char *", "const aclIntArray *", "const aclFloatArray *", "const aclBoolArray *",
                                               "const aclTensor *"}));
    EXPECT_TRUE(sig->params[0].in_place);
    EXPECT_TRUE(sig->params[2].optional);
    EXPECT_EQ(sig->params.back().role, AclnnParam::Role::output);
}

TEST(AclnnSignature, AnAttributeKindWithoutACTypeIsNamed) {
    OpDefInfo op = everything_op();
    op.attrs.push_back(attr("pads", "list_list_int", true));
    auto sig = aclnn_signature(op);
    ASSERT_FALSE(sig);
    EXPECT_NE(sig.error().message.find("attribute 'pads' is of kind list_list_int"), std::string::npos) << sig.error().message;
}

TEST(AclnnSignature, AclDataTypesAreTheReferenceCodes) {
    EXPECT_EQ(acl_data_type(DType::f32), 0);
    EXPECT_EQ(acl_data_type(DType::f16), 1);
    EXPECT_EQ(acl_data_type(DType::bf16), 27);
    EXPECT_EQ(acl_data_type(DType::boolean), 12);
    EXPECT_EQ(acl_data_type(DType::i64), 9);
}

// msopgen's prototype file: one column per dtype combination ascendopt can represent, the
// parameter kinds and attribute types by their prototype names, defaults for optional ones.
TEST(OpPrototype, ColumnsKindsAndDefaultsAsMsopgenReadsThem) {
    OpDefInfo op = everything_op();
    for (auto* list : {&op.inputs, &op.outputs})
        for (auto& p : *list) p.dtypes = {DType::f16, DType::f32, DType::bf16};
    op.unsupported_columns = {2};
    op.attrs.push_back(attr("pads", "list_list_int", true));
    auto proto = op_prototype(op);
    ASSERT_TRUE(proto) << proto.error().message;
    const auto& d = (*proto)[0];
    EXPECT_EQ(d["op"], "ScaledUpdateV2");
    EXPECT_EQ(d["input_desc"][0]["type"], nlohmann::json({"fp16", "float"})) << "the unsupported bf16 column is left out";
    EXPECT_EQ(d["input_desc"][0]["format"], nlohmann::json({"ND", "ND"}));
    EXPECT_EQ(d["input_desc"][1]["param_type"], "dynamic");
    EXPECT_EQ(d["input_desc"][2]["param_type"], "optional");
    EXPECT_EQ(d["output_desc"][1]["name"], "norm");
    EXPECT_EQ(d["attr"][0], nlohmann::json({{"name", "alpha"}, {"param_type", "required"}, {"type", "float"}}));
    EXPECT_EQ(d["attr"][1]["default_value"], 0);
    EXPECT_EQ(d["attr"][4]["type"], "listInt");
    EXPECT_EQ(d["attr"].back()["type"], "listListInt");

    op.unsupported_columns = {0, 1, 2};
    auto none = op_prototype(op);
    ASSERT_FALSE(none);
    EXPECT_NE(none.error().message.find("no dtype combination"), std::string::npos);
}

class AclnnHeader : public testing::ScratchTest {};

// The generated header, included by a call of both functions with arguments of the declared
// types, compiles against the ACL headers.
TEST_F(AclnnHeader, CompilesAgainstTheAclHeaders) {
    auto sig = aclnn_signature(everything_op());
    ASSERT_TRUE(sig);
    std::ofstream(m_dir / sig->header) << aclnn_header(*sig);
    std::ofstream(m_dir / "call.cpp") << "#include \"" << sig->header << "\"\n"
                                      << "int call(aclTensor* t, aclTensorList* l, aclIntArray* i, aclFloatArray* f, aclBoolArray* b,\n"
                                      << "         aclrtStream s) {\n"
                                      << "    uint64_t ws = 0; aclOpExecutor* ex = nullptr; char mode[] = \"fast\";\n"
                                      << "    if (aclnnScaledUpdateV2GetWorkspaceSize(t, l, nullptr, 0.5, 3, true, mode, i, f, b, t, &ws, &ex)) return 1;\n"
                                      << "    return aclnnScaledUpdateV2(nullptr, ws, ex, s);\n}\n";
    const fs::path twin_include = fs::path(ASCENDOPT_TEST_SOURCE_DIR) / "src" / "twin" / "include";
    auto r = run_process({"g++", "-std=c++17", "-fsyntax-only", "-Wall", "-Werror", "-I" + twin_include.string(), "-I" + m_dir.string(),
                          (m_dir / "call.cpp").string()});
    EXPECT_EQ(r.exit_code, 0) << r.output;
}

}  // namespace
}  // namespace ascendopt
