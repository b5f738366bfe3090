// Reading operators and cases: manifests, msopst files, resolution against the OpDef, and the
// errors a user sees for each kind of mistake.
#include <gtest/gtest.h>

#include <fstream>

#include "eval/compare.h"
#include "eval/inputs.h"
#include "eval/operator_source.h"
#include "util/files.h"

using namespace ascendopt;

namespace {

class OperatorFolder : public ::testing::Test {
protected:
    void SetUp() override {
        m_dir = *make_temp_dir(fs::temp_directory_path(), "ascendopt-cases");
        fs::create_directories(m_dir / "op_host");
        fs::create_directories(m_dir / "op_kernel");
        fs::create_directories(m_dir / "tests" / "st");
        write("op_host/x.cpp", "");
        write("op_kernel/x.cpp", "");
        write("golden.py", "def g(x, y):\n    return [x['value']]\n");
    }
    void TearDown() override { fs::remove_all(m_dir); }
    void write(const std::string& rel, const std::string& text) { std::ofstream(m_dir / rel) << text; }
    static OpDefInfo opdef() {
        OpDefInfo op;
        op.type = "XOp";
        op.inputs = {{"x", false, {DType::f16, DType::f32}}};
        op.outputs = {{"y", false, {DType::f16, DType::f32}}};
        op.attrs = {{"alpha", "float", false, 1.5}};
        return op;
    }
    std::string load_error() {
        auto op = load_operator(m_dir);
        if (!op) return op.error().message;
        auto cases = resolve_cases(op->cases, opdef());
        return cases ? "" : cases.error().message;
    }
    fs::path m_dir;
};

}  // namespace

TEST_F(OperatorFolder, ManifestShorthandExpandsPerDtype) {
    write("ascendopt.toml",
          "[operator]\nname = \"XOp\"\ngolden = \"golden.py:g\"\n[defaults]\ndtypes = [\"float16\", \"float32\"]\n"
          "[[case]]\nname = \"a\"\nshape = [3, 5]\nrole = \"perf\"\nrange = [0.0, 2.0]\n[case.tensors.y]\nshape = [3, 1]\n");
    auto op = load_operator(m_dir);
    ASSERT_TRUE(op) << op.error().message;
    auto cases = resolve_cases(op->cases, opdef());
    ASSERT_TRUE(cases) << cases.error().message;
    ASSERT_EQ(cases->size(), 2u);
    const Case& c = (*cases)[1];
    EXPECT_EQ(c.name, "a[float32]");
    EXPECT_EQ(c.role, CaseRole::perf);
    EXPECT_EQ(c.inputs[0].shape, (std::vector<int64_t>{3, 5}));
    EXPECT_EQ(c.outputs[0].shape, (std::vector<int64_t>{3, 1}));
    EXPECT_EQ(c.inputs[0].high, 2.0);
    EXPECT_EQ(c.attrs["alpha"], 1.5) << "OpDef defaults fill attributes the case leaves out";
    EXPECT_EQ(c.golden.kind, GoldenSpec::Kind::python);
    EXPECT_EQ(c.golden.function, "g");
}

TEST_F(OperatorFolder, MsopstCasesWithTypeLists) {
    write("tests/st/X_case.json", R"([{"case_name": "t1", "op": "XOp", "calc_expect_func_file": "../../golden.py:g",
        "input_desc": [{"name": "x", "format": ["ND", "ND"], "type": ["float16", "float"], "shape": [7],
                        "data_distribute": ["normal"], "value_range": [[-3, 3]]}],
        "output_desc": [{"name": "y", "format": ["ND", "ND"], "type": ["float16", "float"], "shape": [7]}],
        "attr": [{"name": "alpha", "type": "float", "value": 2.0}]}])");
    auto op = load_operator(m_dir);
    ASSERT_TRUE(op) << op.error().message;
    auto cases = resolve_cases(op->cases, opdef());
    ASSERT_TRUE(cases) << cases.error().message;
    ASSERT_EQ(cases->size(), 2u);
    EXPECT_EQ((*cases)[0].name, "t1[float16]");
    EXPECT_EQ((*cases)[1].inputs[0].dtype, DType::f32);
    EXPECT_EQ((*cases)[1].inputs[0].distribution, Distribution::normal);
    EXPECT_EQ((*cases)[0].attrs["alpha"], 2.0);
}

TEST_F(OperatorFolder, ErrorsSayWhatToFix) {
    write("ascendopt.toml", "[operator]\ngolden = \"golden.py:g\"\n[[case]]\nname = \"a\"\nshap = [1]\n");
    EXPECT_NE(load_error().find("unknown key 'shap' in [[case]]"), std::string::npos) << load_error();

    write("ascendopt.toml", "[operator\ngolden = 1\n");
    EXPECT_NE(load_error().find("ascendopt.toml:1:"), std::string::npos) << load_error();

    write("ascendopt.toml", "[operator]\ngolden = \"golden.py:g\"\n[[case]]\nname = \"a\"\nshape = [4]\ndtype = \"float64x\"\n");
    EXPECT_NE(load_error().find("unknown dtype 'float64x'"), std::string::npos) << load_error();

    write("ascendopt.toml", "[operator]\ngolden = \"nope.py:g\"\n");
    EXPECT_NE(load_error().find("nope.py does not exist"), std::string::npos) << load_error();

    write("ascendopt.toml", "[operator]\ngolden = \"golden.py:g\"\n[[case]]\nname = \"a\"\nshape = [4]\ndtype = \"int32\"\n");
    EXPECT_NE(load_error().find("not a combination the OpDef declares"), std::string::npos) << load_error();

    write("ascendopt.toml", "[operator]\ngolden = \"golden.py:g\"\n[[case]]\nname = \"a\"\ndtype = \"float16\"\n");
    EXPECT_NE(load_error().find("no shape for 'x'"), std::string::npos) << load_error();

    write("ascendopt.toml", "[operator]\ngolden = \"golden.py:g\"\n[[case]]\nname = \"a\"\nshape = [2]\ndtype = \"float16\"\n"
                            "[case.tensors.w]\nshape = [1]\n");
    EXPECT_NE(load_error().find("tensors.w is not an input or output"), std::string::npos) << load_error();

    write("ascendopt.toml", "[[case]]\nname = \"a\"\nshape = [2]\ndtype = \"float16\"\n");
    EXPECT_NE(load_error().find("has no golden"), std::string::npos) << load_error();

    write("ascendopt.toml", "[operator]\ngolden = \"golden.py:g\"\n[[case]]\nname = \"a\"\nshape = [2]\ndtype = \"float16\"\n"
                            "attrs = { beta = 1.0 }\n");
    EXPECT_NE(load_error().find("attribute 'beta' is not declared"), std::string::npos) << load_error();
}

TEST_F(OperatorFolder, MalformedMsopstJson) {
    write("tests/st/bad.json", "[{\"case_name\": \"t\", \"input_desc\": [");
    EXPECT_NE(load_error().find("is not valid JSON"), std::string::npos) << load_error();
    write("tests/st/bad.json", R"([{"case_name": "t", "input_desc": [{"name": "x", "shape": [2]}], "output_desc": []}])");
    EXPECT_NE(load_error().find("tensor 'x' has no \"type\""), std::string::npos) << load_error();
    write("tests/st/bad.json", R"([{"case_name": "t", "input_desc": [{"name": "x", "type": "float16", "shape": "big"}]}])");
    EXPECT_NE(load_error().find("has no \"shape\" array"), std::string::npos) << load_error();
    write("tests/st/bad.json", R"([{"case_name": 5}])");
    EXPECT_NE(load_error().find("bad.json"), std::string::npos) << load_error();
}

TEST(OperatorPath, MissingFolderAndLayout) {
    auto missing = load_operator("/nonexistent/op");
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().message.find("does not exist"), std::string::npos);
    auto not_op = load_operator(fs::temp_directory_path());
    ASSERT_FALSE(not_op);
    EXPECT_NE(not_op.error().message.find("needs op_host/ and op_kernel/"), std::string::npos);
}

TEST(Compare, TolerancesAndFirstMismatch) {
    TensorSpec spec{"y", DType::f32, {2, 3}};
    std::vector<float> actual = {1, 2, 3, 4, 5.001f, 6};
    std::vector<char> bytes(reinterpret_cast<char*>(actual.data()), reinterpret_cast<char*>(actual.data()) + 24);
    const std::vector<double> golden = {1, 2, 3, 4, 5, 6};
    auto strict = compare_output(spec, bytes, golden, {1e-5, 1e-6});
    EXPECT_EQ(strict.mismatches, 1);
    ASSERT_TRUE(strict.first);
    EXPECT_EQ(strict.first->flat_index, 4);
    EXPECT_EQ(strict.first->index, (std::vector<int64_t>{1, 1}));
    auto loose = compare_output(spec, bytes, golden, {1e-3, 1e-3});
    EXPECT_EQ(loose.mismatches, 0);
    EXPECT_NEAR(loose.max_abs_error, 0.001, 1e-5);
}

TEST(Compare, NanMatchesOnlyNan) {
    TensorSpec spec{"y", DType::f32, {2}};
    std::vector<float> actual = {std::nanf(""), 1.0f};
    std::vector<char> bytes(reinterpret_cast<char*>(actual.data()), reinterpret_cast<char*>(actual.data()) + 8);
    EXPECT_EQ(compare_output(spec, bytes, {std::nan(""), std::nan("")}, {1, 1}).mismatches, 1);
}

TEST(Inputs, ReproducibleAndInRange) {
    TensorSpec t{"x", DType::i32, {1000}, Distribution::uniform, -3, 3};
    const auto a = generate_input(t, tensor_seed(1, "c", "x"));
    const auto b = generate_input(t, tensor_seed(1, "c", "x"));
    const auto c = generate_input(t, tensor_seed(2, "c", "x"));
    EXPECT_EQ(a, b);
    EXPECT_NE(a, c);
    for (size_t i = 0; i < 1000; ++i) {
        const double v = load_element(DType::i32, a.data(), i);
        ASSERT_GE(v, -3);
        ASSERT_LE(v, 3);
    }
}
