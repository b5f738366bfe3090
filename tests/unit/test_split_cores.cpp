// The multicore restore for kernels that every block runs in full (agent/split_cores.h): which
// kernels it takes, what it rewrites, and what it leaves alone.
#include <gtest/gtest.h>

#include "agent/split_cores.h"

namespace ascendopt {
namespace {

const char* k_host_all_cores = "void Tiling(Ctx* c) { c->SetBlockDim(platform.GetCoreNumAiv()); }\n";

const char* k_replicated = R"(class K {
    __aicore__ inline void Process() {
        for (uint32_t i = 0; i < tiles; i++) {
            Move(i * len, len);
            for (int32_t j = 0; j < 4; ++j) {
                Touch(j * 8);
            }
        }
        Move(tiles * len, rest);  // the remainder "}" here is no brace
    }
};
)";

CandidateFiles operator_with(const std::string& host, const std::string& kernel) {
    return {{"op_host/op.cpp", host}, {"op_kernel/op.cpp", kernel}};
}

TEST(SplitCores, ATileLoopIsHandedRoundRobinToTheBlocksAndTheRemainderToTheLast) {
    auto split = split_over_cores(operator_with(k_host_all_cores, k_replicated));
    ASSERT_TRUE(split);
    const std::string& k = split->at("op_kernel/op.cpp");
    EXPECT_NE(k.find("for (uint32_t i = AscendC::GetBlockIdx(); i < tiles; i += AscendC::GetBlockNum())"), std::string::npos) << k;
    EXPECT_NE(k.find("for (int32_t j = 0; j < 4; ++j)"), std::string::npos) << "a nested loop stays whole\n" << k;
    const size_t guard = k.find("if (AscendC::GetBlockIdx() + 1 == AscendC::GetBlockNum()) {");
    ASSERT_NE(guard, std::string::npos) << k;
    const size_t rest = k.find("Move(tiles * len, rest);");
    ASSERT_NE(rest, std::string::npos);
    EXPECT_LT(guard, rest);
    // The guard closes after the remainder and before Process() ends: braces balance (the one in
    // the comment aside).
    EXPECT_EQ(std::count(k.begin(), k.end(), '{') - std::count(k.begin(), k.end(), '}'), -1) << k;
    EXPECT_NE(k.find("        }\n    }\n};"), std::string::npos) << k;
    EXPECT_EQ(split->at("op_host/op.cpp"), k_host_all_cores) << "the host already launches every core";
}

TEST(SplitCores, AKernelThatReadsItsBlockIndexIsNotReplicated) {
    const std::string kernel = std::string(k_replicated) + "int64_t b = AscendC::GetBlockIdx();\n";
    EXPECT_FALSE(kernel_replicated_over_blocks(operator_with(k_host_all_cores, kernel)));
    EXPECT_FALSE(split_over_cores(operator_with(k_host_all_cores, kernel)));
}

TEST(SplitCores, AKernelThatSynchronisesItsBlocksIsLeftAlone) {
    // Blocks with different tile counts would wait at the SyncAll for each other.
    const std::string kernel = std::string(k_replicated) + "void G() { AscendC::SyncAll(); }\n";
    EXPECT_FALSE(split_over_cores(operator_with(k_host_all_cores, kernel)));
}

TEST(SplitCores, OneBlockHasNothingToSplit) {
    EXPECT_FALSE(split_over_cores(operator_with("c->SetBlockDim(1);\n", k_replicated)));
    EXPECT_TRUE(split_over_cores(operator_with("c->SetBlockDim(blocks);\n", k_replicated)));
}

TEST(SplitCores, OnlyLoopsWhoseIndexScalesAnOffsetAreTileLoops) {
    const char* element_loop = "void F() {\n    for (int i = 0; i < n; i++) {\n        buf.SetValue(i, 0);\n    }\n}\n";
    EXPECT_FALSE(split_tile_loops(element_loop));
    const char* unbraced = "void F() {\n    for (int i = 0; i < n; i++) Move(i * len, len);\n}\n";
    EXPECT_FALSE(split_tile_loops(unbraced));
    const char* counting_down = "void F() {\n    for (int i = n; i > 0; i--) {\n        Move(i * len, len);\n    }\n}\n";
    EXPECT_FALSE(split_tile_loops(counting_down));
}

TEST(SplitCores, ALoopWithNothingAfterItGetsNoGuard) {
    const char* kernel = "void F() {\n    for (uint32_t t = 0; t < n; ++t) {\n        Move(len * t, len);\n    }\n    // done\n}\n";
    auto split = split_tile_loops(kernel);
    ASSERT_TRUE(split);
    EXPECT_EQ(split->find("GetBlockIdx() + 1"), std::string::npos) << *split;
    EXPECT_NE(split->find("for (uint32_t t = AscendC::GetBlockIdx(); t < n; t += AscendC::GetBlockNum())"), std::string::npos) << *split;
}

TEST(SplitCores, TwoTileLoopsInOneBlockAreLeftAlone) {
    // Splitting the first would leave the second in its last-block-only tail.
    const char* kernel = "void F() {\n    for (int i = 0; i < n; i++) {\n        A(i * len);\n    }\n    for (int i = 0; i < n; i++) {\n        B(i * len);\n    }\n}\n";
    EXPECT_FALSE(split_tile_loops(kernel));
}

TEST(SplitCores, TileLoopsInSeparateFunctionsAreEachSplit) {
    const char* kernel = "void F() {\n    for (int i = 0; i < n; i++) {\n        A(i * len);\n    }\n}\nvoid G() {\n    for (int k = 0; k < m; k++) {\n        B(k * len);\n    }\n}\n";
    auto split = split_tile_loops(kernel);
    ASSERT_TRUE(split);
    EXPECT_NE(split->find("int i = AscendC::GetBlockIdx()"), std::string::npos);
    EXPECT_NE(split->find("int k = AscendC::GetBlockIdx()"), std::string::npos);
}

}  // namespace
}  // namespace ascendopt
