// Which golden files a manifest or an msopst file may name: goldens are programs ascendopt
// runs, so only files inside the operator folder or the naming file's own folder qualify, after
// `..` and every symlink are resolved (docs/sandbox.md, wall 11).
#include <gtest/gtest.h>

#include <fstream>

#include "eval/operator_source.h"
#include "support/scratch_test.h"
#include "util/files.h"

namespace ascendopt {
namespace {

// m_dir/op: an operator folder with a golden; m_dir/outside: a golden nobody handed over.
class GoldenPaths : public testing::ScratchTest {
protected:
    void SetUp() override {
        ScratchTest::SetUp();
        for (const char* d : {"op/op_host", "op/op_kernel", "op/tests/st", "outside", "manifests"}) fs::create_directories(m_dir / d);
        write("op/op_host/x.cpp", "");
        write("op/op_kernel/x.cpp", "");
        write("op/golden.py", "def g(x, y):\n    return [x['value']]\n");
        write("outside/evil.py", "def g(x, y):\n    return [x['value']]\n");
    }
    void write(const std::string& rel, const std::string& text) { std::ofstream(m_dir / rel) << text; }
    void manifest(const std::string& operator_golden, const std::string& case_golden = "") {
        write("op/ascendopt.toml", "[operator]\nname = \"XOp\"\ngolden = \"" + operator_golden + "\"\n[[case]]\nname = \"a\"\nshape = [4]\n" +
                                       (case_golden.empty() ? "" : "golden = \"" + case_golden + "\"\n"));
    }
    void msopst(const std::string& golden) {
        write("op/tests/st/x.json", "[{\"case_name\": \"a\", \"calc_expect_func_file\": \"" + golden +
                                        "\", \"input_desc\": [{\"name\": \"x\", \"type\": \"float16\", \"shape\": [4]}],"
                                        " \"output_desc\": [{\"name\": \"y\", \"type\": \"float16\", \"shape\": [4]}]}]");
    }
    // The error of loading `path`, or "" when it loads.
    static std::string load_error(const fs::path& path) {
        auto op = load_operator(path);
        return op ? "" : op.error().message + " | " + op.error().hint;
    }
};

TEST_F(GoldenPaths, AManifestGoldenOutsideTheOperatorFolderIsRefused) {
    fs::create_symlink(m_dir / "outside" / "evil.py", m_dir / "op" / "link.py");
    fs::create_directories(m_dir / "op" / "sub");
    const std::vector<std::string> escapes = {"../outside/evil.py:g", (m_dir / "outside" / "evil.py").string() + ":g", "link.py:g",
                                              "sub/../../outside/evil.py:g"};
    for (const auto& ref : escapes) {
        manifest(ref);
        const std::string e = load_error(m_dir / "op");
        EXPECT_NE(e.find("outside the operator folder"), std::string::npos) << ref << ": " << e;
        EXPECT_NE(e.find(ref.substr(0, ref.rfind(':'))), std::string::npos) << "the message names the golden as written: " << e;
        manifest("golden.py:g", ref);  // the same in a [[case]]
        EXPECT_NE(load_error(m_dir / "op").find("outside the operator folder"), std::string::npos) << ref;
    }
}

TEST_F(GoldenPaths, AManifestGoldenInsideTheOperatorOrManifestFolderIsAccepted) {
    fs::create_symlink(m_dir / "op" / "golden.py", m_dir / "op" / "alias.py");
    for (const std::string& ref : std::vector<std::string>{"golden.py:g", "alias.py:g", "./golden.py:g", (m_dir / "op" / "golden.py").string() + ":g"}) {
        manifest(ref);
        EXPECT_EQ(load_error(m_dir / "op"), "") << ref;
    }
    // A manifest kept elsewhere (suite/cann-ops-level1/cos) names goldens beside itself.
    write("manifests/mine.py", "def g(x, y):\n    return [x['value']]\n");
    for (const std::string& ref : std::vector<std::string>{"mine.py:g", (m_dir / "op" / "golden.py").string() + ":g"}) {
        write("manifests/x.toml", "[operator]\nname = \"XOp\"\nsource = \"" + (m_dir / "op").string() + "\"\ngolden = \"" + ref +
                                      "\"\n[[case]]\nname = \"a\"\nshape = [4]\n");
        EXPECT_EQ(load_error(m_dir / "manifests" / "x.toml"), "") << ref;
    }
    write("manifests/x.toml", "[operator]\nname = \"XOp\"\nsource = \"" + (m_dir / "op").string() +
                                  "\"\ngolden = \"../outside/evil.py:g\"\n[[case]]\nname = \"a\"\nshape = [4]\n");
    EXPECT_NE(load_error(m_dir / "manifests" / "x.toml").find("outside the operator folder"), std::string::npos);
}

TEST_F(GoldenPaths, AnMsopstGoldenOutsideItsFolderAndTheOperatorFolderIsRefused) {
    fs::create_symlink(m_dir / "outside" / "evil.py", m_dir / "op" / "tests" / "st" / "link.py");
    for (const std::string& ref : std::vector<std::string>{"../../../outside/evil.py:g", (m_dir / "outside" / "evil.py").string() + ":g", "link.py:g"}) {
        msopst(ref);
        const std::string e = load_error(m_dir / "op");
        EXPECT_NE(e.find("outside the operator folder"), std::string::npos) << ref << ": " << e;
        EXPECT_NE(e.find("x.json"), std::string::npos) << "the message names the msopst file: " << e;
    }
    write("op/tests/st/test_x.py", "def calc_expect_func(x, y):\n    return [x['value']]\n");
    for (const std::string& ref : std::vector<std::string>{"test_x.py", "./test_x.py:calc_expect_func", "../../golden.py:g"}) {
        msopst(ref);
        EXPECT_EQ(load_error(m_dir / "op"), "") << ref;
    }
}

}  // namespace
}  // namespace ascendopt
