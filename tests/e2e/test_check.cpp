// `ascendopt check TREE` over a small tree laid out like cann-ops src/: operators with and
// without manifests, one that does not build, and a manifest in a suite folder that names its
// operator by cann_ops path.
#include "cli_runner.h"

using namespace ascendopt::e2e;

namespace {

class CheckTree : public ::testing::Test {
protected:
    void SetUp() override {
        m_root = *ascendopt::make_temp_dir(fs::temp_directory_path(), "ascendopt-check");
        copy("ops/add_custom", "src/math/add_custom");  // no manifest in the folder: a smoke run
        copy("tests/ops/wild_eye", "src/math/wild_eye");  // its own ascendopt.toml
        copy("ops/exp_custom", "src/nn/exp_custom");      // described by suite/exp/ascendopt.toml
        fs::remove(m_root / "src/nn/exp_custom/ascendopt.toml");
        fs::remove_all(m_root / "src/nn/exp_custom/baseline");
        copy("ops/exp_custom", "src/nn/broken");  // uses an API the twin does not have
        fs::remove(m_root / "src/nn/broken/ascendopt.toml");
        fs::remove_all(m_root / "src/nn/broken/baseline");
        edit("src/nn/broken/op_kernel/exp_custom.cpp", "    op.Process();", "    AscendC::NoSuchApi(1);\n    op.Process();");
        fs::create_directories(m_root / "suite/exp");
        std::ofstream(m_root / "suite/exp/ascendopt.toml")
            << "[operator]\nname = \"ExpCustom\"\ncann_ops = \"src/nn/exp_custom\"\ngolden = \"golden.py:exp_golden\"\n"
               "[[case]]\nname = \"ragged\"\nshape = [7, 131]\ndtypes = [\"float16\", \"float32\"]\n";
        fs::copy(source_dir() / "ops/exp_custom/golden.py", m_root / "suite/exp/golden.py");
    }
    void TearDown() override { fs::remove_all(m_root); }
    void copy(const std::string& from, const std::string& to) {
        fs::create_directories((m_root / to).parent_path());
        fs::copy(source_dir() / from, m_root / to, fs::copy_options::recursive);
    }
    void edit(const std::string& rel, const std::string& from, const std::string& to) {
        auto text = *ascendopt::read_text(m_root / rel);
        const auto at = text.find(from);
        ASSERT_NE(at, std::string::npos) << from;
        text.replace(at, from.size(), to);
        std::ofstream(m_root / rel) << text;
    }
    fs::path m_root;
};

}  // namespace

TEST_F(CheckTree, TableRankingAndSummary) {
    const auto out_file = m_root / "check.json";
    const auto r = run_cli({"check", (m_root / "src").string(), "--suite", (m_root / "suite").string(), "--out", out_file.string()});
    EXPECT_EQ(r.exit_code, 1) << r.output;  // one operator does not build
    EXPECT_NE(r.output.find("[4/4]"), std::string::npos) << "progress per operator:\n" << r.output;
    EXPECT_NE(r.output.find("math/add_custom  yes     smoke: ran"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("math/wild_eye    yes     6/6"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("nn/exp_custom    yes     2/2"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("nn/broken        host    -                 missing AscendC::NoSuchApi (op_kernel/exp_custom.cpp:"),
              std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("missing APIs, by operators blocked:\n    1  AscendC::NoSuchApi  (nn/broken)"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("3 of 4 operators build, 3 pass"), std::string::npos) << r.output;

    // --out holds the same result as JSON, written as the run went.
    const auto doc = nlohmann::json::parse(*ascendopt::read_text(out_file));
    EXPECT_TRUE(doc["finished"].get<bool>());
    ASSERT_EQ(doc["operators"].size(), 4u);
    EXPECT_EQ(doc["operators"][2]["operator"], "nn/broken");
    EXPECT_EQ(doc["operators"][2]["builds"], false);
    EXPECT_EQ(doc["operators"][2]["host_builds"], true);
    EXPECT_EQ(doc["operators"][3]["mode"], "cases");
    EXPECT_EQ(doc["summary"], "3 of 4 operators build, 3 pass");
}

TEST_F(CheckTree, JsonAndBadInput) {
    auto r = run_cli({"check", (m_root / "src/math").string(), "--json", "-q", "--suite", (m_root / "suite").string()});
    EXPECT_EQ(r.exit_code, 0) << r.output;
    const auto doc = json_of(r);
    ASSERT_TRUE(doc.is_object()) << r.output;
    EXPECT_EQ(doc["summary"], "2 of 2 operators build, 2 pass");

    r = run_cli({"check", (m_root / "nothing-here").string()});
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("ascendopt: error: "), std::string::npos) << r.output;
    r = run_cli({"check", (m_root / "suite").string()});
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("no operator folder under"), std::string::npos) << r.output;
}
