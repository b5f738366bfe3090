// Reading operators and cases: manifests, msopst files, resolution against the OpDef, and the
// errors a user sees for each kind of mistake.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <limits>

#include "eval/compare.h"
#include "eval/hidden_case.h"
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

    write("ascendopt.toml", "[operator]\ngolden = \"golden.py:g\"\n[[case]]\nname = \"a\"\nshape = [2]\ndtype = \"float16\"\n"
                            "[case.tensors.y]\nvalues = [0.0]\n");
    EXPECT_NE(load_error().find("tensors.y is an output, so `values` has no effect"), std::string::npos) << load_error();

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

// Outputs start filled with 0xFF: a bool element the kernel never wrote holds a byte that is no
// bool, which must not pass as `true` where the golden is true. Exact 0/1 passes; int8/uint8
// keep comparing by value.
TEST(Compare, ABoolByteOtherThanZeroOrOneIsAMismatch) {
    TensorSpec spec{"mask", DType::boolean, {2, 2}};
    const std::vector<double> golden = {1, 0, 1, 1};
    const std::vector<char> exact = {1, 0, 1, 1};
    EXPECT_EQ(compare_output(spec, exact, golden, {0, 0}).mismatches, 0);
    const std::vector<char> unwritten = {1, 0, char(0xFF), 1};
    const auto c = compare_output(spec, unwritten, golden, {0, 0});
    EXPECT_EQ(c.mismatches, 1);
    ASSERT_TRUE(c.first);
    EXPECT_EQ(c.first->flat_index, 2);
    EXPECT_EQ(c.first->index, (std::vector<int64_t>{1, 0}));
    EXPECT_EQ(c.first->actual, 255);
    EXPECT_NE(c.first->note.find("not a valid bool"), std::string::npos) << c.first->note;
    // A tolerance does not make an invalid byte a bool.
    EXPECT_EQ(compare_output(spec, unwritten, golden, {1, 1}).mismatches, 1);
    EXPECT_EQ(compare_output(spec, {2, 0, 1, 1}, golden, {0, 0}).mismatches, 1);
    TensorSpec bytes{"q", DType::u8, {2}};
    EXPECT_EQ(compare_output(bytes, {char(0xFF), 1}, {255, 1}, {0, 0}).mismatches, 0);
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

// [hidden] relates the shapes of an operator that is not elementwise: a matmul's hidden case
// keeps k shared by a and b, whatever sizes are drawn.
TEST_F(OperatorFolder, HiddenShapesKeepTheOperatorsShapeRelations) {
    write("ascendopt.toml",
          "[operator]\nname = \"XOp\"\ngolden = \"golden.py:g\"\n[hidden]\ndims = { m = 64, k = 32 }\n"
          "shapes = { x = [\"m\", \"k\"], y = [1, \"k\"] }\n"
          "[[case]]\nname = \"perf\"\nrole = \"perf\"\ndtype = \"float32\"\nshape = [64, 32]\n[case.tensors.y]\nshape = [1, 32]\n");
    auto op = load_operator(m_dir);
    ASSERT_TRUE(op) << op.error().message;
    ASSERT_TRUE(op->hidden_shapes);
    auto cases = resolve_cases(op->cases, opdef());
    ASSERT_TRUE(cases) << cases.error().message;
    for (uint64_t seed = 0; seed < 20; ++seed) {
        auto hidden = hidden_case(*cases, seed, &*op->hidden_shapes);
        ASSERT_TRUE(hidden);
        const auto& x = hidden->inputs[0].shape;
        const auto& y = hidden->outputs[0].shape;
        ASSERT_EQ(x.size(), 2u);
        EXPECT_TRUE(x[0] >= 1 && x[0] <= 64 && x[1] >= 1 && x[1] <= 32);
        EXPECT_EQ(y, (std::vector<int64_t>{1, x[1]}));
    }
    write("ascendopt.toml", "[operator]\nname = \"XOp\"\ngolden = \"golden.py:g\"\n[hidden]\ndims = { m = 64 }\nshapes = { x = [\"q\"] }\n");
    auto bad = load_operator(m_dir);
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("one of the dims"), std::string::npos) << bad.error().message;
}

// A list input's tensors, per-output tolerances over the case's, and a partial rtol that keeps
// the dtype default atol.
TEST_F(OperatorFolder, ListShapesAndPerOutputTolerances) {
    write("ascendopt.toml",
          "[operator]\nname = \"LOp\"\ngolden = \"golden.py:g\"\n[[case]]\nname = \"a\"\ndtype = \"float16\"\nrtol = 0.01\n"
          "shapes = [[4, 8], [33]]\n[case.tensors.r]\nshape = [2]\ndtype = \"float32\"\natol = 0.5\n");
    OpDefInfo op;
    op.type = "LOp";
    op.inputs = {{"x", false, {DType::f16}, true}};
    op.outputs = {{"y", false, {DType::f16}, true}, {"r", false, {DType::f32}}};
    auto loaded = load_operator(m_dir);
    ASSERT_TRUE(loaded) << loaded.error().message;
    auto cases = resolve_cases(loaded->cases, op);
    ASSERT_TRUE(cases) << cases.error().message;
    const Case& c = (*cases)[0];
    ASSERT_EQ(c.inputs.size(), 2u);
    EXPECT_EQ(c.inputs[1].label(), "x[1]");
    EXPECT_EQ(c.inputs[1].shape, (std::vector<int64_t>{33}));
    ASSERT_EQ(c.outputs.size(), 3u);
    EXPECT_EQ(c.outputs[1].file_stem(), "y.1");
    EXPECT_EQ(c.dtype_signature(), "x:float16,y:float16,r:float32") << "a list counts once";
    const Tolerance y = tolerance_for(c, c.outputs[0]);
    EXPECT_EQ(y.rtol, 0.01);
    EXPECT_EQ(y.atol, default_tolerance(DType::f16).atol) << "rtol alone keeps the default atol";
    const Tolerance r = tolerance_for(c, c.outputs[2]);
    EXPECT_EQ(r.rtol, 0.01);
    EXPECT_EQ(r.atol, 0.5);
}

// TOML integers are int64: an int64 tensor's values arrive exactly, beyond 2^53 too (a double
// would round 2^53 + 1 to 2^53), and saturate into narrower integer dtypes.
TEST_F(OperatorFolder, IntegerValuesBeyondDoublePrecisionStayExact) {
    write("ascendopt.toml",
          "[operator]\nname = \"IOp\"\ngolden = \"golden.py:g\"\n[[case]]\nname = \"a\"\ndtype = \"int64\"\nshape = [4]\n"
          "[case.tensors.x]\nvalues = [9007199254740993, -9223372036854775808, 9223372036854775807, -9007199254740995]\n"
          "[[case]]\nname = \"narrow\"\ndtype = \"int32\"\nshape = [2]\n[case.tensors.x]\nvalues = [9007199254740993, -5]\n"
          "[[case]]\nname = \"mixed\"\ndtype = \"float32\"\nshape = [2]\n[case.tensors.x]\nvalues = [1, 0.5]\n");
    OpDefInfo op;
    op.type = "IOp";
    op.inputs = {{"x", false, {DType::i64, DType::i32, DType::f32}}};
    op.outputs = {{"y", false, {DType::i64, DType::i32, DType::f32}}};
    auto loaded = load_operator(m_dir);
    ASSERT_TRUE(loaded) << loaded.error().message;
    auto cases = resolve_cases(loaded->cases, op);
    ASSERT_TRUE(cases) << cases.error().message;
    ASSERT_EQ(cases->size(), 3u);
    const auto data = generate_input((*cases)[0].inputs[0], 1);
    ASSERT_EQ(data.size(), 32u);
    int64_t v[4];
    std::memcpy(v, data.data(), sizeof v);
    EXPECT_EQ(v[0], 9007199254740993);
    EXPECT_EQ(v[1], std::numeric_limits<int64_t>::min());
    EXPECT_EQ(v[2], std::numeric_limits<int64_t>::max());
    EXPECT_EQ(v[3], -9007199254740995);
    const auto narrow = generate_input((*cases)[1].inputs[0], 1);
    int32_t n[2];
    std::memcpy(n, narrow.data(), sizeof n);
    EXPECT_EQ(n[0], std::numeric_limits<int32_t>::max());
    EXPECT_EQ(n[1], -5);
    const auto mixed = generate_input((*cases)[2].inputs[0], 1);
    EXPECT_EQ(load_element(DType::f32, mixed.data(), 1), 0.5);
}

// An optional input whose dtype in some columns is one ascendopt cannot represent (mat_mul_v3's
// offset_w: DT_INT4 beside float32): cases that leave it out keep those columns; a case that
// gives it is refused, and the message lists the columns without it.
TEST_F(OperatorFolder, AnUnrepresentableOptionalDtypeOnlyBindsCasesThatGiveIt) {
    const nlohmann::json describe = {
        {"ops",
         {{{"type", "XOp"},
           {"inputs",
            {{{"name", "x"}, {"optional", false}, {"dtypes", {"float16", "float32"}}},
             {{"name", "w"}, {"optional", true}, {"dtypes", {"int8", "ge:29 (DT_INT4)"}}}}},
           {"outputs", {{{"name", "y"}, {"optional", false}, {"dtypes", {"float16", "float32"}}}}},
           {"attrs", nlohmann::json::array()}}}}};
    auto op = parse_opdef(describe, "XOp");
    ASSERT_TRUE(op) << op.error().message;
    write("ascendopt.toml",
          "[operator]\nname = \"XOp\"\ngolden = \"golden.py:g\"\n"
          "[[case]]\nname = \"f32\"\ndtypes = [\"float32\"]\nshape = [4]\n");
    auto m = load_operator(m_dir);
    ASSERT_TRUE(m) << m.error().message;
    auto cases = resolve_cases(m->cases, *op);
    ASSERT_TRUE(cases) << cases.error().message;
    EXPECT_EQ((*cases)[0].inputs[0].dtype, DType::f32);

    write("ascendopt.toml",
          "[operator]\nname = \"XOp\"\ngolden = \"golden.py:g\"\n"
          "[[case]]\nname = \"f32_w\"\n[case.tensors.x]\nshape = [4]\ndtype = \"float32\"\n"
          "[case.tensors.w]\nshape = [4]\ndtype = \"int8\"\n[case.tensors.y]\nshape = [4]\ndtype = \"float32\"\n");
    m = load_operator(m_dir);
    ASSERT_TRUE(m) << m.error().message;
    auto refused = resolve_cases(m->cases, *op);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("x:float32,y:float32"), std::string::npos) << refused.error().message;
}
