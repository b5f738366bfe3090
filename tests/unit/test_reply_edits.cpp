// Reading and applying LLM replies: SEARCH/REPLACE blocks, whole files, and every way a
// reply can be unusable, each with a status and a reason fit for the next prompt.
#include <gtest/gtest.h>

#include "agent/edit_apply.h"

namespace ascendopt {
namespace {

const std::map<std::string, std::string> k_files = {
    {"op_kernel/add_custom.cpp",
     "#include \"kernel_operator.h\"\n"
     "class KernelAdd {\n"
     "public:\n"
     "    __aicore__ inline void Process() {\n"
     "        for (int32_t i = 0; i < loopCount; i++) {\n"
     "            CopyIn(i);\n"
     "            Compute(i);\n"
     "            CopyOut(i);\n"
     "        }\n"
     "    }\n"
     "    constexpr static int32_t BUFFER_NUM = 1;\n"
     "};\n"},
    {"op_host/add_custom_tiling.h", "#define TILE 1024\n"},
    {"manifest.toml", "name = \"add_custom\"\n"},
};

TEST(ReplyEdits, SeveralBlocksInSeveralFiles) {
    const std::string reply =
        "Double buffering overlaps copies with compute.\n\n"
        "op_kernel/add_custom.cpp\n"
        "```cpp\n"
        "<<<<<<< SEARCH\n"
        "    constexpr static int32_t BUFFER_NUM = 1;\n"
        "=======\n"
        "    constexpr static int32_t BUFFER_NUM = 2;\n"
        ">>>>>>> REPLACE\n"
        "<<<<<<< SEARCH\n"
        "public:\n"
        "=======\n"
        "public:  // double-buffered\n"
        ">>>>>>> REPLACE\n"
        "```\n\n"
        "And a larger tile:\n"
        "op_host/add_custom_tiling.h\n"
        "<<<<<<< SEARCH\n"
        "#define TILE 1024\n"
        "=======\n"
        "#define TILE 4096\n"
        ">>>>>>> REPLACE\n";
    const AppliedReply r = apply_reply(reply, k_files);
    ASSERT_TRUE(r.ok()) << r.reason;
    EXPECT_NE(r.files.at("op_kernel/add_custom.cpp").find("BUFFER_NUM = 2;"), std::string::npos);
    EXPECT_NE(r.files.at("op_kernel/add_custom.cpp").find("public:  // double-buffered"), std::string::npos);
    EXPECT_EQ(r.files.at("op_host/add_custom_tiling.h"), "#define TILE 4096\n");
    EXPECT_EQ(r.changed, (std::vector<std::string>{"op_host/add_custom_tiling.h", "op_kernel/add_custom.cpp"}));
    EXPECT_TRUE(r.touches_kernel);
    EXPECT_TRUE(r.touches_host);
    EXPECT_TRUE(r.notes.empty());
}

TEST(ReplyEdits, CrlfRepliesApplyAndCrlfFilesStayCrlf) {
    auto files = k_files;
    files["op_host/add_custom_tiling.h"] = "#define TILE 1024\r\n#define CORES 8\r\n";
    const std::string reply =
        "op_host/add_custom_tiling.h\r\n<<<<<<< SEARCH\r\n#define TILE 1024\r\n=======\r\n#define TILE 2048\r\n>>>>>>> REPLACE\r\n";
    const AppliedReply r = apply_reply(reply, files);
    ASSERT_TRUE(r.ok()) << r.reason;
    EXPECT_EQ(r.files.at("op_host/add_custom_tiling.h"), "#define TILE 2048\r\n#define CORES 8\r\n");
    EXPECT_FALSE(r.touches_kernel);
}

TEST(ReplyEdits, IndentationDriftIsReindentedAndNoted) {
    const std::string reply =
        "op_kernel/add_custom.cpp\n"
        "<<<<<<< SEARCH\n"
        "for (int32_t i = 0; i < loopCount; i++) {\n"
        "    CopyIn(i);\n"
        "    Compute(i);\n"
        "=======\n"
        "for (int32_t i = 0; i < loopCount; i++) {\n"
        "    CopyIn(i);\n"
        "    PipeBarrier<PIPE_ALL>();\n"
        "    Compute(i);\n"
        ">>>>>>> REPLACE\n";
    const AppliedReply r = apply_reply(reply, k_files);
    ASSERT_TRUE(r.ok()) << r.reason;
    EXPECT_NE(r.files.at("op_kernel/add_custom.cpp").find("            CopyIn(i);\n            PipeBarrier<PIPE_ALL>();\n"), std::string::npos)
        << r.files.at("op_kernel/add_custom.cpp");
    EXPECT_NE(r.files.at("op_kernel/add_custom.cpp").find("        for (int32_t i = 0;"), std::string::npos);
    ASSERT_EQ(r.notes.size(), 1u);
    EXPECT_NE(r.notes[0].find("re-indented"), std::string::npos);
}

TEST(ReplyEdits, AMismatchIsReportedWithTheClosestMatchAndNothingApplies) {
    const std::string reply =
        "op_host/add_custom_tiling.h\n<<<<<<< SEARCH\n#define TILE 1024\n=======\n#define TILE 8192\n>>>>>>> REPLACE\n"
        "op_kernel/add_custom.cpp\n<<<<<<< SEARCH\n            CopyIn(i);\n            Compute(i + 1);\n=======\nX\n>>>>>>> REPLACE\n";
    const AppliedReply r = apply_reply(reply, k_files);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status, ReplyStatus::search_mismatch);
    EXPECT_NE(r.reason.find("block 2"), std::string::npos) << r.reason;
    EXPECT_NE(r.reason.find("closest is lines 6-7"), std::string::npos) << r.reason;
    EXPECT_NE(r.reason.find("the file has `Compute(i);`"), std::string::npos) << r.reason;
    EXPECT_TRUE(r.files.empty());  // all or nothing: the first block's edit is not returned either
}

TEST(ReplyEdits, ABlockForAFileThatDoesNotExistNamesTheFilesThatDo) {
    const std::string reply = "op_kernel/mul_custom.cpp\n<<<<<<< SEARCH\nfoo\n=======\nbar\n>>>>>>> REPLACE\n";
    const AppliedReply r = apply_reply(reply, k_files);
    EXPECT_EQ(r.status, ReplyStatus::unknown_file);
    EXPECT_NE(r.reason.find("mul_custom.cpp, which does not exist"), std::string::npos) << r.reason;
    EXPECT_NE(r.reason.find("op_kernel/add_custom.cpp"), std::string::npos);
}

TEST(ReplyEdits, AnEmptySearchCreatesANewFileInsideTheOperator) {
    const std::string reply = "op_kernel/helpers.h\n<<<<<<< SEARCH\n=======\n#pragma once\n>>>>>>> REPLACE\n";
    const AppliedReply r = apply_reply(reply, k_files);
    ASSERT_TRUE(r.ok()) << r.reason;
    EXPECT_EQ(r.files.at("op_kernel/helpers.h"), "#pragma once\n");
}

TEST(ReplyEdits, FilesOutsideTheKernelAndHostCannotChange) {
    const std::string reply = "manifest.toml\n<<<<<<< SEARCH\nname = \"add_custom\"\n=======\nname = \"x\"\n>>>>>>> REPLACE\n";
    EXPECT_EQ(apply_reply(reply, k_files).status, ReplyStatus::outside_operator);
    const std::string escape = "```cpp ../../etc/passwd.txt\nroot\n```\n";
    EXPECT_EQ(apply_reply(escape, k_files).status, ReplyStatus::outside_operator);
}

TEST(ReplyEdits, ASearchThatMatchesTwicePlacesIsAmbiguous) {
    auto files = k_files;
    files["op_host/add_custom_tiling.h"] = "x = 1;\ny = 2;\nx = 1;\n";
    const AppliedReply r = apply_reply("op_host/add_custom_tiling.h\n<<<<<<< SEARCH\nx = 1;\n=======\nx = 3;\n>>>>>>> REPLACE\n", files);
    EXPECT_EQ(r.status, ReplyStatus::ambiguous);
    EXPECT_NE(r.reason.find("lines 1 and 3"), std::string::npos) << r.reason;
}

TEST(ReplyEdits, WholeFilesByFenceInfoPrecedingLineOrComment) {
    for (const std::string& reply : {std::string("```cpp op_host/add_custom_tiling.h\n#define TILE 64\n```\n"),
                                    std::string("`op_host/add_custom_tiling.h`:\n```cpp\n#define TILE 64\n```\n"),
                                    std::string("```cpp\n// file: op_host/add_custom_tiling.h\n#define TILE 64\n```\n")}) {
        const AppliedReply r = apply_reply(reply, k_files);
        ASSERT_TRUE(r.ok()) << reply << "\n" << r.reason;
        EXPECT_NE(r.files.at("op_host/add_custom_tiling.h").find("#define TILE 64\n"), std::string::npos);
    }
}

TEST(ReplyEdits, AFileNamedByItsBasenameResolvesWhenUnique) {
    const AppliedReply r = apply_reply("add_custom_tiling.h\n<<<<<<< SEARCH\n#define TILE 1024\n=======\n#define TILE 1\n>>>>>>> REPLACE\n", k_files);
    ASSERT_TRUE(r.ok()) << r.reason;
    EXPECT_EQ(r.files.at("op_host/add_custom_tiling.h"), "#define TILE 1\n");
}

TEST(ReplyEdits, AnUnnamedBlockIsTheKernelOnlyWhenThereIsOneKernelFile) {
    const AppliedReply r = apply_reply("Here:\n```cpp\nint main() {}\n```\n", k_files);
    ASSERT_TRUE(r.ok()) << r.reason;
    EXPECT_EQ(r.files.at("op_kernel/add_custom.cpp"), "int main() {}\n");
    auto two = k_files;
    two["op_kernel/other.cpp"] = "x\n";
    EXPECT_EQ(apply_reply("```cpp\nint main() {}\n```\n", two).status, ReplyStatus::malformed);
}

TEST(ReplyEdits, UnusableRepliesHaveAStatusAndAReason) {
    const AppliedReply prose = apply_reply("I would use double buffering here.", k_files);
    EXPECT_EQ(prose.status, ReplyStatus::no_code);
    EXPECT_NE(prose.reason.find("SEARCH/REPLACE"), std::string::npos);
    const AppliedReply cut = apply_reply("op_host/add_custom_tiling.h\n<<<<<<< SEARCH\n#define TILE 1024\n=======\n#define TILE 1\n", k_files);
    EXPECT_EQ(cut.status, ReplyStatus::malformed);
    EXPECT_NE(cut.reason.find("without its >>>>>>> REPLACE"), std::string::npos) << cut.reason;
    const AppliedReply nameless = apply_reply("<<<<<<< SEARCH\n#define TILE 1024\n=======\n#define TILE 1\n>>>>>>> REPLACE\n", k_files);
    EXPECT_EQ(nameless.status, ReplyStatus::malformed);
    EXPECT_NE(nameless.reason.find("names no file"), std::string::npos);
    const AppliedReply same = apply_reply("op_host/add_custom_tiling.h\n<<<<<<< SEARCH\n#define TILE 1024\n=======\n#define TILE 1024\n>>>>>>> REPLACE\n", k_files);
    EXPECT_EQ(same.status, ReplyStatus::no_code);
    EXPECT_NE(same.reason.find("change nothing"), std::string::npos);
}

}  // namespace
}  // namespace ascendopt
