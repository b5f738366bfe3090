// Operators as published in the wild (cann-ops): manifests that name an operator in a user's
// checkout, the case constructs they need, attribute-name mistakes, kernel entries named like
// C library functions, aclnn API files in op_host, and what `ascendopt check` derives from a
// tree (smoke cases, missing APIs from compiler output, manifests matched by path).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>

#include "eval/build_diagnosis.h"
#include "eval/builder.h"
#include "eval/hidden_case.h"
#include "eval/operator_source.h"
#include "eval/smoke_case.h"
#include "eval/tree_check.h"
#include "util/files.h"

using namespace ascendopt;

namespace {

class Tree : public ::testing::Test {
protected:
    void SetUp() override { m_dir = *make_temp_dir(fs::temp_directory_path(), "ascendopt-wild"); }
    void TearDown() override {
        unsetenv("ASCENDOPT_CANN_OPS");
        fs::remove_all(m_dir);
    }
    void write(const fs::path& rel, const std::string& text) {
        fs::create_directories((m_dir / rel).parent_path());
        std::ofstream(m_dir / rel) << text;
    }
    // An operator folder with empty sources (enough for reading cases and listing files).
    void make_operator(const fs::path& rel) {
        write(rel / "op_host" / "op.cpp", "");
        write(rel / "op_kernel" / "op.cpp", "");
    }
    fs::path m_dir;
};

OpDefInfo cast_like_opdef() {
    OpDefInfo op;
    op.type = "CastLike";
    op.inputs = {{"x", false, {DType::f32, DType::c64}}, {"value", false, {DType::f32, DType::f32}}};
    op.outputs = {{"y", false, {DType::f16, DType::f32}}};
    op.attrs = {{"dst_type", "int", true, nullptr}, {"alpha", "float", false, 0.5}};
    return op;
}

}  // namespace

// cann_ops names the operator inside the checkout given by --cann-ops / ASCENDOPT_CANN_OPS.
TEST_F(Tree, ManifestFindsItsOperatorInTheNamedCheckout) {
    make_operator("checkout/src/math/foo");
    write("suite/foo/golden.py", "def g(**k):\n    return []\n");
    write("suite/foo/ascendopt.toml", "[operator]\ncann_ops = \"src/math/foo\"\ngolden = \"golden.py:g\"\n[[case]]\nname = \"a\"\nshape = [4]\n");

    unsetenv("ASCENDOPT_CANN_OPS");
    auto unnamed = load_operator(m_dir / "suite/foo");
    ASSERT_FALSE(unnamed);
    EXPECT_NE(unnamed.error().message.find("no cann-ops checkout was named"), std::string::npos) << unnamed.error().message;
    EXPECT_NE(unnamed.error().hint.find("--cann-ops DIR"), std::string::npos) << unnamed.error().hint;

    setenv("ASCENDOPT_CANN_OPS", (m_dir / "suite").c_str(), 1);
    auto wrong = load_operator(m_dir / "suite/foo");
    ASSERT_FALSE(wrong);
    EXPECT_NE(wrong.error().message.find("has no src/math/foo"), std::string::npos) << wrong.error().message;

    setenv("ASCENDOPT_CANN_OPS", (m_dir / "checkout").c_str(), 1);
    auto op = load_operator(m_dir / "suite/foo");
    ASSERT_TRUE(op) << op.error().message;
    EXPECT_EQ(op->root, fs::canonical(m_dir / "checkout/src/math/foo"));
    EXPECT_EQ(op->cases.size(), 1u);
}

// Exact values (complex64 as interleaved real, imaginary), known defects and hidden_case.
TEST_F(Tree, ManifestValuesComplexAndKnownDefects) {
    make_operator("op");
    write("op/golden.py", "def g(**k):\n    return []\n");
    write("op/ascendopt.toml",
          "[operator]\ngolden = \"golden.py:g\"\nhidden_case = false\n"
          "[[case]]\nname = \"c\"\nshape = [2]\nattrs = { dst_type = 1 }\nknown_defect = \"the tail is read from the wrong offset\"\n"
          "[case.tensors.x]\ndtype = \"complex64\"\nvalues = [1.0, -2.0, inf, nan]\n[case.tensors.value]\ndtype = \"float32\"\nvalues = [3.5]\n"
          "[case.tensors.y]\ndtype = \"float32\"\n");
    auto op = load_operator(m_dir / "op");
    ASSERT_TRUE(op) << op.error().message;
    EXPECT_FALSE(op->hidden_case);
    auto cases = resolve_cases(op->cases, cast_like_opdef());
    ASSERT_TRUE(cases) << cases.error().message;
    const Case& c = cases->front();
    EXPECT_EQ(c.known_defect, "the tail is read from the wrong offset");
    EXPECT_EQ(c.inputs[0].dtype, DType::c64);
    EXPECT_EQ(c.inputs[0].scalars(), 4);
    EXPECT_EQ(c.inputs[0].bytes(), 16u);
    ASSERT_EQ(c.inputs[0].values.size(), 4u);
    EXPECT_TRUE(std::isinf(c.inputs[0].values[2]));
    EXPECT_EQ(c.inputs[1].values, std::vector<double>{3.5});
    EXPECT_EQ(c.attrs["alpha"], 0.5);

    write("op/ascendopt.toml", "[operator]\ngolden = \"golden.py:g\"\n[[case]]\nname = \"c\"\nshape = [2]\nknown_defect = \"\"\n");
    auto empty_reason = load_operator(m_dir / "op");
    ASSERT_FALSE(empty_reason);
    EXPECT_NE(empty_reason.error().message.find("known_defect must say why"), std::string::npos) << empty_reason.error().message;
}

// msopst files in the wild spell attributes differently from the OpDef, or pass an input as an
// attribute (muls' value): both are errors that name the OpDef's spelling.
TEST_F(Tree, AttributeMistakesSuggestTheOpDefName) {
    make_operator("op");
    write("op/golden.py", "def g(**k):\n    return []\n");
    auto error_for = [&](const std::string& attrs) {
        write("op/ascendopt.toml", "[operator]\ngolden = \"golden.py:g\"\n[[case]]\nname = \"c\"\nshape = [2]\ndtype = \"float32\"\n"
                                   "attrs = " + attrs + "\n[case.tensors.y]\ndtype = \"float16\"\n");
        auto op = load_operator(m_dir / "op");
        if (!op) return op.error().message;
        auto cases = resolve_cases(op->cases, cast_like_opdef());
        return cases ? std::string() : cases.error().message + " | " + cases.error().hint;
    };
    EXPECT_NE(error_for("{ dstType = 1 }").find("did you mean 'dst_type'?"), std::string::npos) << error_for("{ dstType = 1 }");
    const std::string input = error_for("{ dst_type = 1, value = 2.0 }");
    EXPECT_NE(input.find("'value' is an input of CastLike, not an attribute"), std::string::npos) << input;
    EXPECT_NE(input.find("[case.tensors.value] with values"), std::string::npos) << input;
    EXPECT_NE(error_for("{ alpha = 1.0 }").find("required attribute 'dst_type'"), std::string::npos) << error_for("{ alpha = 1.0 }");
}

// A random reshaping of an operator whose attributes describe its shape (Eye's num_rows, a BLAS
// n) could never match a golden: no hidden case for those.
TEST(HiddenCase, NotForAttributeShapedOperators) {
    Case perf;
    perf.name = "perf";
    perf.role = CaseRole::perf;
    perf.inputs = {{"x", DType::f32, {64, 128}}};
    perf.outputs = {{"y", DType::f32, {64, 128}}};
    perf.attrs = {{"scale", 2.0}, {"mode", 1}};
    ASSERT_TRUE(hidden_case({perf}, 7).has_value());
    perf.attrs["num_rows"] = 64;
    EXPECT_FALSE(hidden_case({perf}, 7).has_value());
    perf.attrs.erase("num_rows");
    perf.attrs["batch_shape"] = {3, 8192};  // a list holding the element count
    EXPECT_FALSE(hidden_case({perf}, 7).has_value());
}

// The hidden case's shape comes from a nonce drawn afresh for every evaluation, not from the
// input seed, which the user sets and a candidate may know: two evaluations under the same
// --seed see different shapes. The nonce travels with the case, and forcing it (to reproduce a
// failure) gives the same shape again.
TEST(HiddenCase, EveryEvaluationDrawsAFreshShape) {
    Case perf;
    perf.name = "perf";
    perf.role = CaseRole::perf;
    perf.inputs = {{"x", DType::f32, {1048576}}};
    perf.outputs = {{"y", DType::f32, {1048576}}};
    std::set<uint64_t> nonces;
    std::set<std::vector<int64_t>> shapes;
    for (int evaluation = 0; evaluation < 8; ++evaluation) {
        const uint64_t nonce = hidden_nonce(std::nullopt);
        const auto hidden = hidden_case({perf}, nonce);
        ASSERT_TRUE(hidden);
        EXPECT_EQ(hidden->hidden_nonce, nonce);
        nonces.insert(nonce);
        shapes.insert(hidden->inputs[0].shape);
    }
    EXPECT_EQ(nonces.size(), 8u);
    EXPECT_GT(shapes.size(), 1u);
    EXPECT_EQ(hidden_nonce(12345), 12345u);
    // One run shares one draw (its evaluations reuse the case store's inputs and golden).
    EXPECT_EQ(run_hidden_nonce(std::nullopt), run_hidden_nonce(std::nullopt));
    EXPECT_EQ(run_hidden_nonce(777), 777u);
    EXPECT_EQ(hidden_case({perf}, 12345)->inputs[0].shape, hidden_case({perf}, 12345)->inputs[0].shape);
}

TEST(SmokeCase, FollowsTheOpDefsFirstColumn) {
    const Case c = smoke_case(cast_like_opdef());
    EXPECT_EQ(c.name, "smoke");
    EXPECT_EQ(c.golden.kind, GoldenSpec::Kind::none);
    ASSERT_EQ(c.inputs.size(), 2u);
    EXPECT_EQ(c.inputs[0].dtype, DType::f32);
    EXPECT_EQ(c.outputs[0].dtype, DType::f16);
    EXPECT_EQ(c.inputs[0].shape, k_smoke_shape);
    EXPECT_EQ(c.attrs["dst_type"], 0) << "a required attribute gets a neutral value";
    EXPECT_EQ(c.attrs["alpha"], 0.5) << "an optional one its default";
}

TEST(BuildDiagnosis, NamesWhatTheTwinLacks) {
    const std::string log =
        "/tmp/b/op_host/foo.cpp:54:18: error: 'TilingParseContext' is not a member of 'gert'\n"
        "/tmp/b/op_host/foo.cpp:55:5: error: 'context' was not declared in this scope\n"
        "/tmp/b/op_kernel/foo.cpp:12:9: error: 'class AscendC::TPipe' has no member named 'InitSpmBuffer'\n"
        "/tmp/b/op_kernel/foo.cpp:30:9: error: 'const class gert::TilingContext' has no member named 'GetCompileInfo'\n"
        "/tmp/b/op_kernel/foo.cpp:31:9: error: 'map' was not declared in this scope\n"
        "/tmp/b/op_kernel/foo.cpp:40:5: error: no matching function for call to 'Gather<float>(AscendC::LocalTensor<float>&, int)'\n"
        "/tmp/b/op_host/foo.cpp:3:10: fatal error: register/op_impl_registry.h: No such file or directory\n"
        "/usr/bin/ld: foo.o: in function `main': undefined reference to `AscendC::SetAtomicAdd<float>()'\n"
        "/tmp/b/op_host/foo.cpp:54:18: error: 'TilingParseContext' is not a member of 'gert'\n";
    const auto miss = missing_apis(log);
    std::vector<std::string> names;
    for (const auto& m : miss) names.push_back(m.api);
    EXPECT_EQ(names, (std::vector<std::string>{"gert::TilingParseContext", "AscendC::TPipe::InitSpmBuffer", "gert::TilingContext::GetCompileInfo",
                                               "std::map (unqualified or without its header)", "Gather (no overload for these arguments)",
                                               "header register/op_impl_registry.h", "AscendC::SetAtomicAdd"}));
    EXPECT_EQ(miss.front().location, "op_host/foo.cpp:54");
    EXPECT_TRUE(missing_apis("/tmp/b/op_kernel/x.cpp:3:1: error: expected ';' before '}' token\n").empty());
    EXPECT_EQ(first_build_error("In file included from x.h:1,\n/tmp/x.cpp:3:1: error: expected ';' before '}' token\n"),
              "expected ';' before '}' token");
}

TEST_F(Tree, FindsOperatorFoldersAndTheirManifests) {
    make_operator("src/math/cos");
    make_operator("src/math/acos");
    make_operator("src/nn/deep/relu");
    make_operator("src/.hidden/skipped");
    make_operator("src/math/cos/examples/nested");  // inside an operator folder: not searched
    write("src/math/readme.md", "");
    const auto found = find_operator_folders(m_dir / "src");
    ASSERT_EQ(found.size(), 3u);
    EXPECT_EQ(found[0], m_dir / "src/math/acos");
    EXPECT_EQ(found[1], m_dir / "src/math/cos");
    EXPECT_EQ(found[2], m_dir / "src/nn/deep/relu");

    write("suite/cos/ascendopt.toml", "[operator]\ncann_ops = \"src/math/cos/\"\n");
    write("suite/broken/ascendopt.toml", "[operator\n");
    const auto index = ManifestIndex::from_suites({m_dir / "suite", m_dir / "no-such-suite"});
    EXPECT_EQ(index.size(), 1u);
    const auto cos = index.find(m_dir / "src/math/cos");
    ASSERT_TRUE(cos.has_value());
    EXPECT_EQ(cos->manifest, m_dir / "suite/cos/ascendopt.toml");
    EXPECT_EQ(cos->checkout, fs::canonical(m_dir));
    EXPECT_FALSE(index.find(m_dir / "src/math/acos").has_value()) << "src/math/cos must not match .../acos";

    write("src/nn/deep/relu/ascendopt.toml", "");
    EXPECT_EQ(index.find(m_dir / "src/nn/deep/relu")->manifest, m_dir / "src/nn/deep/relu/ascendopt.toml");
}

// Collectives (matmul_all_reduce: HCCL in the kernel; MC2 in the OpDef) cannot run on one
// device: check lists them as out of scope instead of counting them as failures.
TEST_F(Tree, OperatorsThatNeedSeveralDevicesAreOutOfScope) {
    make_operator("a");
    write("a/op_kernel/a.cpp", "#include \"lib/hccl/hccl.h\"\n");
    make_operator("b");
    write("b/op_host/b.cpp", "OpDefB() { this->MC2().HcclGroup(\"group\"); }\n");
    make_operator("c");
    write("c/op_kernel/c.cpp", "// one device: no communication\nvoid f() { Hccl_t_is_not_a_call = 1; }\n");
    const auto a = needs_several_devices(m_dir / "a");
    ASSERT_TRUE(a.has_value());
    EXPECT_NE(a->find("op_kernel/a.cpp"), std::string::npos) << *a;
    EXPECT_TRUE(needs_several_devices(m_dir / "b").has_value());
    EXPECT_FALSE(needs_several_devices(m_dir / "c").has_value());
}

// op_host of many cann-ops operators also holds their aclnn API (aclnn_*.cpp, *_l0.cpp), which
// CANN builds into another library; a kernel file #included by another is not compiled alone.
TEST_F(Tree, OperatorFilesAsTheCannBuildUsesThem) {
    make_operator("op");
    write("op/op_host/aclnn_op.cpp", "#include \"level0/op.h\"\n");
    write("op/op_host/op_l0.cpp", "");
    write("op/op_host/op_l0.h", "");
    write("op/op_kernel/op.cpp", "#include \"op_impl.cpp\"\n");
    write("op/op_kernel/op_impl.cpp", "");
    auto op = load_operator_for_smoke(m_dir / "op");
    ASSERT_TRUE(op) << op.error().message;
    EXPECT_TRUE(op->smoke);
    ASSERT_EQ(op->host_sources.size(), 1u);
    EXPECT_EQ(op->host_sources[0].filename(), "op.cpp");
    ASSERT_EQ(op->kernel_units.size(), 1u);
    EXPECT_EQ(op->kernel_units[0].filename(), "op.cpp");
    for (const auto& f : op->all_files) EXPECT_EQ(f.filename().string().find("aclnn_"), std::string::npos) << f;
}

// cann-ops writes extern"C" without a space and names kernels cos, sqrt, trunc.
TEST_F(Tree, KernelEntriesAsPublished) {
    write("k/a.cpp", "#include \"kernel_operator.h\"\nextern\"C\" __global__ __aicore__ void cos(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)\n{}\n");
    auto entry = find_kernel_entry({m_dir / "k/a.cpp"});
    ASSERT_TRUE(entry) << entry.error().message;
    EXPECT_EQ(entry->first, "cos");
    EXPECT_EQ(entry->second, 4);
    EXPECT_TRUE(clashes_with_c_library("cos"));
    EXPECT_TRUE(clashes_with_c_library("trunc"));
    EXPECT_FALSE(clashes_with_c_library("add_custom"));
}
