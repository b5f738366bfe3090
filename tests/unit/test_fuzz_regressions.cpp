// Inputs that once broke (or were written to break) a parser of untrusted text: each must be
// answered with a value (accepted or an error), never a crash. `make fuzz` adds what it finds.
#include <gtest/gtest.h>

#include <filesystem>

#include "eval/case_draft.h"
#include "eval/operator_source.h"

using namespace ascendopt;
namespace fs = std::filesystem;

namespace {

std::vector<fs::path> inputs(const std::string& target) {
    std::vector<fs::path> out;
    const fs::path dir = fs::path(ASCENDOPT_TEST_SOURCE_DIR) / "tests" / "fuzz-regressions" / target;
    for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path());
    return out;
}

OpDefInfo sample_opdef() {
    OpDefInfo o;
    o.type = "FuzzOp";
    o.inputs = {{"x", false, {DType::f16, DType::f32}}};
    o.outputs = {{"y", false, {DType::f16, DType::f32}}};
    return o;
}

}  // namespace

TEST(FuzzRegressions, AShapeTooLargeToMaterialiseIsAnError) {
    const fs::path f = fs::path(ASCENDOPT_TEST_SOURCE_DIR) / "tests" / "fuzz-regressions" / "manifest" / "huge-shape.toml";
    OperatorSource op;
    op.root = f.parent_path();
    ASSERT_TRUE(read_manifest(f, op));
    const auto cases = resolve_cases(op.cases, sample_opdef());
    ASSERT_FALSE(cases);
    EXPECT_NE(cases.error().message.find("more than 2^32 elements"), std::string::npos) << cases.error().message;
}

TEST(FuzzRegressions, ManifestParserAnswersEveryInput) {
    const auto files = inputs("manifest");
    ASSERT_FALSE(files.empty());
    for (const auto& f : files) {
        OperatorSource op;
        op.root = f.parent_path();
        const auto st = read_manifest(f, op);
        if (!st) {
            EXPECT_FALSE(st.error().message.empty()) << f;
            continue;
        }
        const auto cases = resolve_cases(op.cases, sample_opdef());
        if (!cases) {
            EXPECT_FALSE(cases.error().message.empty()) << f;
        }
    }
}

TEST(FuzzRegressions, MsopstParserAnswersEveryInput) {
    const auto files = inputs("msopst");
    ASSERT_FALSE(files.empty());
    for (const auto& f : files) {
        std::vector<CaseDraft> drafts;
        const auto st = read_msopst(f, GoldenSpec{}, drafts);
        if (!st) {
            EXPECT_FALSE(st.error().message.empty()) << f;
            continue;
        }
        const auto cases = resolve_cases(drafts, sample_opdef());
        if (!cases) {
            EXPECT_FALSE(cases.error().message.empty()) << f;
        }
    }
}
