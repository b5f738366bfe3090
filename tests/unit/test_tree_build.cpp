// Operators inside a cann-ops checkout build as that tree builds them: host sources, include
// folders and kernel options from the operator's CMakeLists.txt, the checkout's shared files
// on the include path and in the build's inputs, and candidates that keep building from their
// original's tree.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "eval/builder.h"
#include "eval/candidate_folder.h"
#include "eval/generated_names.h"
#include "eval/include_scan.h"
#include "eval/op_cmake.h"
#include "eval/operator_source.h"
#include "eval/screen.h"
#include "util/files.h"

using namespace ascendopt;

namespace {

bool contains(const std::vector<fs::path>& v, const fs::path& p) { return std::find(v.begin(), v.end(), p) != v.end(); }

class CheckoutTree : public ::testing::Test {
protected:
    void SetUp() override {
        m_root = fs::canonical(*make_temp_dir(fs::temp_directory_path(), "ascendopt-tree"));
        m_src = m_root / "src";
        m_op = m_src / "cat" / "op1";
        write("src/common/inc/fam/fam_tiling_def.h",
              "#pragma once\n#include \"register/tilingdata_base.h\"\nBEGIN_TILING_DATA_DEF(FamTiling)\nTILING_DATA_FIELD_DEF(uint32_t, n);\n"
              "END_TILING_DATA_DEF;\n");
        write("src/common/inc/fam/kernel_helper.h", "#pragma once\n#include \"kernel_operator.h\"\n");
        write("src/common/src/fam/tiling_func.cpp", "#include \"fam/fam_tiling_def.h\"\n");
        write("src/cat/sib/op_host/sib_common.h", "#pragma once\nconstexpr int k_sib = 3;\n");
        write("src/cat/op1/CMakeLists.txt",
              "# comment\nset(EXTRA ${CMAKE_CURRENT_SOURCE_DIR}/op_host/extra.cpp)\n"
              "add_ops_compile_options(\n  OP_NAME Op1\n  OPTIONS -I${OP_COMMON_DIR}/inc/fam -DFOO=1 --cce-auto-sync=on)\n"
              "target_sources(op_host_aclnn PRIVATE\n  op_host/op1_def.cpp)\n"
              "target_sources(optiling PRIVATE ${OP_COMMON_DIR}/src/fam/tiling_func.cpp ${EXTRA})\n"
              "target_sources(opapi PRIVATE op_host/aclnn_op1.cpp op_host/l2.cpp)\n"
              "target_include_directories(optiling PRIVATE\n  ${CMAKE_CURRENT_SOURCE_DIR}/op_host\n  ${ASCEND_CANN_PACKAGE_PATH}/include\n  ${NOT_SET}/x)\n");
        write("src/cat/op1/op_host/op1_def.cpp", "#include \"register/op_def_registry.h\"\n");
        write("src/cat/op1/op_host/extra.cpp", "#include \"../../sib/op_host/sib_common.h\"\n");
        write("src/cat/op1/op_host/aclnn_op1.cpp", "#include \"opdev/op_executor.h\"\n");
        write("src/cat/op1/op_host/l2.cpp", "#include \"opdev/op_executor.h\"\n");
        write("src/cat/op1/op_kernel/op1.cpp", "#include \"kernel_helper.h\"\n");
    }
    void TearDown() override { fs::remove_all(m_root); }
    void write(const std::string& rel, const std::string& text) {
        fs::create_directories((m_root / rel).parent_path());
        std::ofstream(m_root / rel) << text;
    }
    fs::path m_root, m_src, m_op;
};

}  // namespace

TEST_F(CheckoutTree, CMakeListsNamesHostSourcesIncludeFoldersAndKernelOptions) {
    EXPECT_EQ(enclosing_checkout(m_op), m_root);
    auto plan = read_op_cmake(m_op, m_root);
    ASSERT_TRUE(plan) << plan.error().message;
    ASSERT_TRUE(*plan);
    const std::vector<fs::path> host = {m_op / "op_host/op1_def.cpp", m_src / "common/src/fam/tiling_func.cpp", m_op / "op_host/extra.cpp"};
    EXPECT_EQ((*plan)->host_sources, host) << "declaration order, never the aclnn API's (opapi) sources";
    EXPECT_TRUE(contains((*plan)->host_include_dirs, m_op / "op_host"));
    EXPECT_TRUE(contains((*plan)->host_include_dirs, m_src / "common/inc")) << "the checkout's shared headers";
    EXPECT_TRUE(contains((*plan)->kernel_include_dirs, m_src / "common/inc/fam"));
    EXPECT_EQ((*plan)->kernel_defines, std::vector<std::string>{"FOO=1"});
    ASSERT_EQ((*plan)->notes.size(), 1u) << "CANN's own include folders are no loss";
    EXPECT_NE((*plan)->notes[0].find("NOT_SET"), std::string::npos);
}

TEST_F(CheckoutTree, TheBuildReadsTheCheckoutsSharedFilesAndOnlyThoseOfItsOwnItCompiles) {
    auto op = load_operator_for_smoke(m_op);
    ASSERT_TRUE(op) << op.error().message;
    ASSERT_TRUE(op->checkout);
    EXPECT_EQ(*op->checkout, m_root);
    for (const char* f : {"common/src/fam/tiling_func.cpp", "common/inc/fam/fam_tiling_def.h", "common/inc/fam/kernel_helper.h",
                          "cat/sib/op_host/sib_common.h"})
        EXPECT_TRUE(contains(op->context_files, m_src / f)) << f;
    EXPECT_TRUE(contains(op->tiling_headers, m_src / "common/inc/fam/fam_tiling_def.h")) << "a shared tiling header the host code reaches";
    EXPECT_TRUE(contains(op->build_files, m_op / "op_host/extra.cpp"));
    EXPECT_FALSE(contains(op->build_files, m_op / "op_host/l2.cpp")) << "not compiled, so not screened";
    EXPECT_TRUE(contains(op->all_files, m_op / "op_host/l2.cpp")) << "but a candidate may still change it";
    EXPECT_EQ(op->display_path(m_src / "cat/sib/op_host/sib_common.h"), "src/cat/sib/op_host/sib_common.h");
    EXPECT_FALSE(screen_operator(*op)) << "the aclnn API's includes and the sibling's header pass";
}

TEST_F(CheckoutTree, ACandidateCopyBuildsFromItsOriginalsTree) {
    auto original = load_operator_for_smoke(m_op);
    ASSERT_TRUE(original) << original.error().message;
    auto files = read_candidate_files(*original);
    ASSERT_TRUE(files);
    const fs::path out = m_root / "out";
    auto copy = materialize_candidate(*original, *files, "0123456789abcdef0123", out);
    ASSERT_TRUE(copy) << copy.error().message;
    EXPECT_NE(copy->root, m_op);
    EXPECT_EQ(copy->origin, m_op);
    EXPECT_TRUE(contains(copy->host_sources, copy->root / "op_host/extra.cpp")) << "its own files are the copy's";
    EXPECT_TRUE(contains(copy->host_sources, m_src / "common/src/fam/tiling_func.cpp"));
    EXPECT_TRUE(contains(copy->context_files, m_src / "cat/sib/op_host/sib_common.h")) << "the relative include resolves through the original";
    EXPECT_FALSE(screen_operator(*copy));

    (*files)["op_host/extra.cpp"] = "#include \"/etc/hostname\"\n";
    auto absolute = materialize_candidate(*original, *files, "abcdef0123456789abcd", out);
    ASSERT_TRUE(absolute);
    const auto hit = screen_operator(*absolute);
    ASSERT_TRUE(hit);
    EXPECT_NE(hit->reason.find("absolute path"), std::string::npos) << hit->reason;
    (*files)["op_host/extra.cpp"] = "#include \"../../../../../../../../../../etc/hostname\"\n";
    auto climbing = materialize_candidate(*original, *files, "fedcba9876543210fedc", out);
    ASSERT_TRUE(climbing);
    EXPECT_TRUE(screen_operator(*climbing)) << "an include leaving the checkout is refused";
}

TEST(IncludeScan, QuotedNamesResolveBesideTheIncluderFirstAndOnlyInsideTheRoots) {
    const fs::path d = fs::canonical(*make_temp_dir(fs::temp_directory_path(), "ascendopt-scan"));
    fs::create_directories(d / "a");
    fs::create_directories(d / "inc");
    fs::create_directories(d / "outside");
    std::ofstream(d / "a/main.cpp") << "#include \"x.h\"\n  # include <y.h>\n#include \"gone.h\"\n#include <vector>\n";
    std::ofstream(d / "a/x.h") << "#include \"z.h\"\n";
    std::ofstream(d / "inc/x.h") << "";
    std::ofstream(d / "inc/y.h") << "";
    std::ofstream(d / "outside/z.h") << "";
    const IncludeSearch search{{d / "inc", d / "outside"}, {d / "a", d / "inc"}};
    EXPECT_EQ(resolve_include("x.h", true, d / "a/main.cpp", search), d / "a/x.h");
    EXPECT_EQ(resolve_include("x.h", false, d / "a/main.cpp", search), d / "inc/x.h");
    const auto reached = include_closure({d / "a/main.cpp"}, search);
    EXPECT_EQ(reached, (std::vector<fs::path>{d / "a/x.h", d / "inc/y.h"})) << "z.h lies outside the roots";
    fs::remove_all(d);
}

// An optional input a case leaves out still has its DTYPE_ macro, from the dtype combination the
// present parameters select (CANN compiles a kernel per combination).
TEST(KernelMacros, AbsentOptionalInputsTakeTheirCombinationsType) {
    OpDefInfo op;
    op.inputs = {ParamInfo{"x", false, {DType::f16, DType::bf16}}, ParamInfo{"scale", true, {DType::f32, DType::f16}}};
    op.outputs = {ParamInfo{"y", false, {DType::i8, DType::i8}}};
    Case c;
    TensorSpec x;
    x.name = "x";
    x.dtype = DType::bf16;
    TensorSpec y;
    y.name = "y";
    y.dtype = DType::i8;
    c.inputs = {x};
    c.outputs = {y};
    const auto macros = absent_param_dtype_macros(op, c, {"X", "Y"});
    EXPECT_NE(macros.find("#define DTYPE_SCALE half"), std::string::npos) << macros;
    EXPECT_EQ(macros.find("DTYPE_X"), std::string::npos) << macros;
}

TEST_F(CheckoutTree, AnOpDefTheCMakeListsLeavesOutIsStillCompiled) {
    // add_layer_norm_quant's CMakeLists.txt comments its _def.cpp out: only the tiling is named.
    write("src/cat/op2/CMakeLists.txt", "target_sources(optiling PRIVATE op_host/op2_tiling.cpp)\n"
                                         "# target_sources(op_host_aclnn PRIVATE op_host/op2_def.cpp)\n");
    write("src/cat/op2/op_host/op2_tiling.cpp", "IMPL_OP_OPTILING(Op2).Tiling(nullptr);\n");
    write("src/cat/op2/op_host/op2_def.cpp", "namespace ops { OP_ADD(Op2); }\n");
    write("src/cat/op2/op_host/op2_proto.cpp", "IMPL_OP_INFERSHAPE(Op2);\n");
    write("src/cat/op2/op_kernel/op2.cpp", "#include \"kernel_operator.h\"\n");
    auto op = load_operator_for_smoke(m_src / "cat/op2");
    ASSERT_TRUE(op) << op.error().message;
    const fs::path op2 = m_src / "cat/op2";
    EXPECT_EQ(op->host_sources, (std::vector<fs::path>{op2 / "op_host/op2_tiling.cpp", op2 / "op_host/op2_def.cpp"}))
        << "the file with OP_ADD joins the named sources; the unnamed proto file stays out";

    // op1's CMakeLists.txt names its OpDef file: nothing is added.
    auto op1 = load_operator_for_smoke(m_op);
    ASSERT_TRUE(op1) << op1.error().message;
    write("src/cat/op1/op_host/op1_def.cpp", "namespace ops { OP_ADD(Op1); }\n");
    write("src/cat/op1/op_host/stray.cpp", "namespace ops { OP_ADD(Stray); }\n");
    op1 = load_operator_for_smoke(m_op);
    ASSERT_TRUE(op1) << op1.error().message;
    EXPECT_FALSE(contains(op1->host_sources, m_op / "op_host/stray.cpp"));
}

TEST(KernelBuild, LaunchChevronsBecomeACallWithTheLinesKept) {
    const std::string source =
        "extern \"C\" __global__ __aicore__ void k(GM_ADDR x) {}\n"
        "void k_do(uint32_t blockDim, void* l2ctrl, void* stream, uint8_t* x) {\n"
        "    k<<<blockDim, l2ctrl,\n        stream>>>(\n        x);\n"
        "    ns::k2 <<<1, nullptr, stream>>>(x);\n"
        "}\n";
    const auto out = rewrite_launch_chevrons(source);
    ASSERT_TRUE(out);
    EXPECT_NE(out->find("::ascendopt_twin::chevron_launch(\"k\", blockDim, l2ctrl,\n        stream)(\n        x);"), std::string::npos) << *out;
    EXPECT_NE(out->find("::ascendopt_twin::chevron_launch(\"ns::k2\", 1, nullptr, stream)(x);"), std::string::npos) << *out;
    EXPECT_EQ(std::count(out->begin(), out->end(), '\n'), std::count(source.begin(), source.end(), '\n'));
    EXPECT_EQ(out->find("<<<"), std::string::npos);
    EXPECT_FALSE(rewrite_launch_chevrons("int a = b << 2; // no launch\n"));
}

TEST(KernelBuild, TheKernelsTilingClassFromTheTilingHeaders) {
    const fs::path d = fs::canonical(*make_temp_dir(fs::temp_directory_path(), "ascendopt-tiling"));
    std::ofstream(d / "registered.h") << "BEGIN_TILING_DATA_DEF(HelperTiling)\nEND_TILING_DATA_DEF;\n"
                                         "BEGIN_TILING_DATA_DEF(MainTiling)\nEND_TILING_DATA_DEF;\n"
                                         "REGISTER_TILING_DATA_CLASS(HelperTilingOp, HelperTiling)\n"
                                         "REGISTER_TILING_DATA_CLASS( MyOp , MainTiling )\n";
    std::ofstream(d / "unregistered.h") << "BEGIN_TILING_DATA_DEF(OnlyTiling)\nEND_TILING_DATA_DEF;\n";
    EXPECT_EQ(tiling_class_in_headers({d / "registered.h"}, "MyOp"), "MainTiling");
    EXPECT_EQ(tiling_class_in_headers({d / "unregistered.h"}, "MyOp"), "OnlyTiling") << "no registration: the one class declared";
    EXPECT_EQ(tiling_class_in_headers({d / "registered.h"}, "OtherOp"), "") << "two classes, none registered for OtherOp";
    EXPECT_EQ(tiling_class_in_headers({d / "registered.h"}, "My"), "") << "the whole name must match";
    fs::remove_all(d);
}

// Names the operator reports reach headers the kernel build generates and no screen reads: only
// identifiers (a type's name may be qualified), of bounded length, and defines of one line pass;
// a refusal shows the name escaped.
TEST(KernelBuild, GeneratedSourcesTakeOnlyIdentifiers) {
    for (const char* fine : {"x", "_y2", "ExpCustomTilingData", "DTYPE_X"}) EXPECT_EQ(unfit_identifier(fine), "") << fine;
    for (const char* fine : {"optiling::ExpCustomTilingData", "::a::b_1", "ascendopt_twin::NoTilingClassRegistered"})
        EXPECT_EQ(unfit_identifier(fine, true), "") << fine;
    EXPECT_NE(unfit_identifier("optiling::X"), "") << "a qualified name only where a type is named";
    const std::pair<std::string, const char*> unfit[] = {
        {"", "empty"},
        {"X\n#include \"/etc/passwd\"", "a newline"},
        {"1abc", "starts with '1'"},
        {"a b", "a space"},
        {"a-b", "'-'"},
        {std::string(257, 'a'), "longer than 256"},
        {"a::", "empty part"},
        {"(anonymous namespace)::X", "starts with '('"},
        {"caf\xC3\xA9", "the byte 0xC3"},
    };
    for (const auto& [name, why] : unfit) EXPECT_NE(unfit_identifier(name, true).find(why), std::string::npos) << name << " -> " << unfit_identifier(name, true);
    EXPECT_EQ(unfit_identifier(std::string(256, 'a')), "");
    EXPECT_EQ(unfit_define("LOG_CPP"), "");
    EXPECT_EQ(unfit_define("ORIG=\"a b\" (1)"), "");
    EXPECT_NE(unfit_define("X=1\n#include \"/etc/passwd\"").find("a newline"), std::string::npos);
    EXPECT_NE(unfit_define("X=1 \\").find("backslash"), std::string::npos);
    EXPECT_NE(unfit_define("X Y=1").find("its name"), std::string::npos);
    const auto refused = check_generated_name("the tiling class the host code registers", "optiling::T\nint smuggled = 1;\t\"\x01", true);
    ASSERT_FALSE(refused);
    EXPECT_TRUE(refused.error().refused);
    EXPECT_NE(refused.error().message.find("\"optiling::T\\nint smuggled = 1;\\t\\\"\\x01\""), std::string::npos) << refused.error().message;
    EXPECT_TRUE(check_generated_name("x", "optiling::T", true));
}

TEST(KernelBuild, AnOutputOfAnInputsNameIsItsRefType) {
    Case c;
    c.inputs = {TensorSpec{"y", DType::f32}, TensorSpec{"x", DType::f16}};
    c.outputs = {TensorSpec{"y", DType::f32}, TensorSpec{"z", DType::i32}};
    const std::string d = tensor_dtype_defines(c);
    for (const char* line : {"#define DTYPE_Y float\n", "#define DTYPE_Y_REF float\n", "#define ORIG_DTYPE_Y_REF DT_FLOAT\n",
                             "#define DTYPE_X half\n", "#define DTYPE_Z int32_t\n"})
        EXPECT_NE(d.find(line), std::string::npos) << line << " in\n" << d;
    EXPECT_EQ(d.find("DTYPE_Z_REF"), std::string::npos);
}

TEST(KernelBuild, AHostTilingHeadersGuardThatAKernelHeaderSharesIsUndone) {
    const fs::path d = fs::canonical(*make_temp_dir(fs::temp_directory_path(), "ascendopt-guards"));
    std::ofstream(d / "host_tiling.h") << "/*\n * Copyright\n */\n\n#ifndef SHARED_GUARD_H_\n#define SHARED_GUARD_H_\nBEGIN_TILING_DATA_DEF(T)\n#endif\n";
    std::ofstream(d / "kernel.h") << "// kernel side\n#ifndef SHARED_GUARD_H_\n#define SHARED_GUARD_H_\nnamespace K {}\n#endif\n";
    std::ofstream(d / "other_tiling.h") << "#ifndef OTHER_H\n#define OTHER_H\n#endif\n";
    std::ofstream(d / "once.h") << "#pragma once\n#ifndef SHARED_GUARD_H_\n#define SHARED_GUARD_H_\n#endif\n";
    EXPECT_EQ(colliding_include_guards({d / "host_tiling.h", d / "other_tiling.h"}, {d / "kernel.h"}),
              std::vector<std::string>{"SHARED_GUARD_H_"});
    EXPECT_TRUE(colliding_include_guards({d / "host_tiling.h"}, {d / "host_tiling.h"}).empty()) << "a header is no collision with itself";
    EXPECT_TRUE(colliding_include_guards({d / "other_tiling.h"}, {d / "kernel.h"}).empty());
    EXPECT_TRUE(colliding_include_guards({d / "once.h"}, {d / "kernel.h"}).empty()) << "#pragma once first: no guard";
    fs::remove_all(d);
}
