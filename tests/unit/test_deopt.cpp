// The de-optimizations of rule-based rewind, on the bundled add_custom: each changes what it
// names and nothing else, and reports where it does not apply.
#include <gtest/gtest.h>

#include "agent/deopt.h"
#include "eval/operator_source.h"

namespace ascendopt {
namespace {

const Deoptimization& rule(const std::string& name) {
    for (const auto& d : deoptimizations())
        if (d.name == name) return d;
    throw std::runtime_error("no rule " + name);
}

CandidateFiles add_custom() {
    auto op = load_operator(std::filesystem::path(ASCENDOPT_TEST_SOURCE_DIR) / "ops" / "add_custom");
    EXPECT_TRUE(op);
    auto files = read_candidate_files(*op);
    EXPECT_TRUE(files);
    return *files;
}

size_t count(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

TEST(Deoptimizations, SingleBufferTakesOneBufferPerQueue) {
    const auto before = add_custom();
    auto after = rule("single_buffer").apply(before);
    ASSERT_TRUE(after);
    const std::string& k = after->at("op_kernel/add_custom.cpp");
    EXPECT_EQ(count(k, "InitBuffer(inQueueX, 1, "), 1u);
    EXPECT_EQ(count(k, ", 1, tileLength"), 3u);
    EXPECT_EQ(after->at("op_host/add_custom.cpp"), before.at("op_host/add_custom.cpp"));
    EXPECT_FALSE(rule("single_buffer").apply(*after)) << "a single-buffered kernel has nothing left to take";
}

TEST(Deoptimizations, FullBarriersFollowEveryEnQue) {
    auto after = rule("full_barriers").apply(add_custom());
    ASSERT_TRUE(after);
    const std::string& k = after->at("op_kernel/add_custom.cpp");
    EXPECT_EQ(count(k, "AscendC::PipeBarrier<PIPE_ALL>();"), count(k, ".EnQue"));
    EXPECT_NE(k.find("inQueueX.EnQue(xLocal);\n        AscendC::PipeBarrier<PIPE_ALL>();"), std::string::npos) << k;
}

TEST(Deoptimizations, HostRulesChangeTheTilingOnly) {
    const auto before = add_custom();
    auto cores = rule("fewer_cores").apply(before);
    ASSERT_TRUE(cores);
    EXPECT_NE(cores->at("op_host/add_custom.cpp").find("((platform.GetCoreNumAiv()) >= 8 ? (platform.GetCoreNumAiv()) / 8 : 1)"), std::string::npos);
    EXPECT_EQ(cores->at("op_kernel/add_custom.cpp"), before.at("op_kernel/add_custom.cpp"));
    auto tiles = rule("smaller_tiles").apply(before);
    ASSERT_TRUE(tiles);
    EXPECT_NE(tiles->at("op_host/add_custom.cpp").find("/= 4;"), std::string::npos);
}

TEST(Deoptimizations, ARuleWithNothingToChangeSaysSo) {
    const CandidateFiles bare = {{"op_kernel/k.cpp", "void f() {}\n"}, {"op_host/h.cpp", "int g() { return 0; }\n"}};
    for (const auto& d : deoptimizations()) EXPECT_FALSE(d.apply(bare)) << d.name;
}

// What offline Stage I transfers when a record's diff does not fit the target: the optimization
// itself, as a rule.
TEST(Deoptimizations, RestoringUndoesTheRule) {
    const auto original = add_custom();
    auto barred = rule("full_barriers").apply(original);
    ASSERT_TRUE(barred);
    auto freed = rule("full_barriers").restore(*barred);
    ASSERT_TRUE(freed);
    EXPECT_EQ(*freed, original);
    auto single = rule("single_buffer").apply(original);
    ASSERT_TRUE(single);
    auto doubled = rule("single_buffer").restore(*single);
    ASSERT_TRUE(doubled);
    EXPECT_EQ(count(doubled->at("op_kernel/add_custom.cpp"), ", 2, tileLength"), 3u);
    EXPECT_FALSE(rule("single_buffer").restore(original)) << "nothing single-buffered to restore";
    const CandidateFiles untuned = {{"op_kernel/k.cpp", "constexpr int32_t BUFFER_NUM = 1;\nvoid f() { pipe.InitBuffer(q, BUFFER_NUM, 64); }\n"}};
    auto restored = rule("single_buffer").restore(untuned);
    ASSERT_TRUE(restored);
    EXPECT_NE(restored->at("op_kernel/k.cpp").find("constexpr int32_t BUFFER_NUM = 2;"), std::string::npos);
    // Any name the kernel uses as a queue depth, wherever it is defined (heaviside's BufferNum).
    const CandidateFiles named = {{"op_kernel/k.h", "constexpr uint16_t BufferNum = 1;\nconstexpr uint16_t Other = 1;\n"},
                                  {"op_kernel/k.cpp", "#include \"k.h\"\nTQue<QuePosition::VECIN, BufferNum> q;\n"
                                                      "void f() { pipe->InitBuffer(q, BufferNum, size / BufferNum); }\n"}};
    auto renamed = rule("single_buffer").restore(named);
    ASSERT_TRUE(renamed);
    EXPECT_EQ(renamed->at("op_kernel/k.h"), "constexpr uint16_t BufferNum = 2;\nconstexpr uint16_t Other = 1;\n") << "only the queue depth";
    EXPECT_EQ(renamed->at("op_kernel/k.cpp"), named.at("op_kernel/k.cpp"));
    const CandidateFiles defined = {{"op_kernel/k.cpp", "#define BUFNUM 1\nvoid f() { pipe.InitBuffer(q, BUFNUM, 64); }\n"}};
    auto from_define = rule("single_buffer").restore(defined);
    ASSERT_TRUE(from_define);
    EXPECT_NE(from_define->at("op_kernel/k.cpp").find("#define BUFNUM 2\n"), std::string::npos);
    // add_custom splits its work by block index already: the multicore restore has nothing to do.
    EXPECT_FALSE(rule("fewer_cores").restore(add_custom()));
}

}  // namespace
}  // namespace ascendopt
