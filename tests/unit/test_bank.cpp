// The experience bank: storing and merging records, BM25 and dense retrieval.
#include <gtest/gtest.h>

#include "bank/bank.h"
#include "bank/retrieval.h"
#include "support/scripted_llm_server.h"
#include "util/files.h"

namespace ascendopt {
namespace {

ExperienceRecord record(const std::string& op, const std::string& family, const std::string& bottleneck, const std::string& diff) {
    ExperienceRecord r;
    r.operator_name = op;
    r.family = family;
    r.title = family + " in " + op;
    r.bottleneck = bottleneck;
    r.diff = diff;
    r.slow_latency_us = 20;
    r.fast_latency_us = 10;
    r.soc = "Ascend910B2";
    r.provenance = nlohmann::json::array({{{"source", "test"}}});
    return r;
}

class BankTest : public ::testing::Test {
protected:
    ScratchDir m_dir{*make_temp_dir(std::filesystem::temp_directory_path(), "bank-test")};
    Bank open() { return std::move(*Bank::open(m_dir.path() / "bank.db")); }
};

TEST_F(BankTest, EquivalentRecordsMergeAndOthersAreKept) {
    Bank bank = open();
    const auto a = record("add_custom", "kernel.memory.double_buffer", "MTE2 latency exposed per tile", "-BUFFER_NUM = 1\n+BUFFER_NUM = 2\n");
    auto first = bank.put(a);
    ASSERT_TRUE(first) << first.error().message;
    EXPECT_FALSE(first->merged);
    auto reformatted = a;
    reformatted.diff = "-BUFFER_NUM  =  1\n+BUFFER_NUM = 2\n";  // only whitespace differs
    reformatted.provenance = nlohmann::json::array({{{"source", "another run"}}});
    auto second = bank.put(reformatted);
    ASSERT_TRUE(second);
    EXPECT_TRUE(second->merged);
    EXPECT_EQ(second->id, first->id);
    EXPECT_TRUE(bank.put(reformatted)->merged);  // the same evidence again (a resumed run): not counted twice
    EXPECT_TRUE(bank.put(record("exp_custom", "kernel.memory.double_buffer", "same", a.diff))->merged == false);
    auto all = bank.list();
    ASSERT_TRUE(all);
    ASSERT_EQ(all->size(), 2u);
    EXPECT_EQ((*all)[0].support, 2);
    EXPECT_EQ((*all)[0].provenance.size(), 2u);
    EXPECT_DOUBLE_EQ((*all)[0].speedup(), 2.0);
    EXPECT_FALSE(*bank.get(999));
}

TEST_F(BankTest, TextRetrievalGoesBySymptomNotOperatorName) {
    Bank bank = open();
    ASSERT_TRUE(bank.put(record("add_custom", "kernel.memory.double_buffer", "MTE2 copy latency exposed once per tile", "+BUFFER_NUM = 2\n")));
    ASSERT_TRUE(bank.put(record("softmax_custom", "kernel.sync.elimination", "vector pipe waits on PIPE_ALL barriers", "-PipeBarrier<PIPE_ALL>();\n")));
    ASSERT_TRUE(bank.put(record("exp_custom", "tiling.tile_size", "many small DMA transfers: setup dominates", "-TILE = 1024\n+TILE = 8192\n")));
    auto hits = bank.search_text("the kernel is bound by MTE2 latency", 2);
    ASSERT_TRUE(hits) << hits.error().message;
    ASSERT_FALSE(hits->empty());
    EXPECT_EQ((*hits)[0].record.operator_name, "add_custom");
    auto barrier = bank.search_text("PipeBarrier stalls", 3);
    ASSERT_TRUE(barrier);
    ASSERT_FALSE(barrier->empty());
    EXPECT_EQ((*barrier)[0].record.family, "kernel.sync.elimination");
    EXPECT_TRUE(bank.search_text("softmax_custom", 3)->empty()) << "operator names are not indexed";
    EXPECT_TRUE(bank.search_text("\"; DROP TABLE records; --", 3));  // quoted: never FTS syntax
}

TEST_F(BankTest, RetrievalLeavesOutTheTargetsOwnRecords) {
    Bank bank = open();
    ASSERT_TRUE(bank.put(record("add_custom", "kernel.memory.double_buffer", "MTE2 latency", "+BUFFER_NUM = 2\n")));
    ASSERT_TRUE(bank.put(record("exp_custom", "kernel.memory.double_buffer", "MTE2 latency too", "+BUFFER_NUM = 2;\n")));
    auto got = retrieve(bank, "MTE2 latency", {.top_k = 5, .exclude_operator = "add_custom"});
    ASSERT_TRUE(got);
    ASSERT_EQ(got->hits.size(), 1u);
    EXPECT_EQ(got->hits[0].record.operator_name, "exp_custom");
    EXPECT_EQ(got->method, "bm25");
}

TEST_F(BankTest, DenseRetrievalUsesAndCachesEmbeddings) {
    Bank bank = open();
    ASSERT_TRUE(bank.put(record("a", "kernel.memory.double_buffer", "copy latency exposed", "+x\n")));
    ASSERT_TRUE(bank.put(record("b", "kernel.sync.elimination", "zzz barrier", "+y\n")));
    testing::ScriptedLlmServer server;
    EndpointConfig config;
    config.base_url = server.base_url();
    EmbeddingsClient embeddings(std::make_shared<OpenAiEndpoint>(config), "embed");
    auto got = retrieve(bank, "double buffer copy latency exposed", {.top_k = 1, .embeddings = &embeddings});
    ASSERT_TRUE(got) << got.error().message;
    EXPECT_EQ(got->method, "dense");
    ASSERT_EQ(got->hits.size(), 1u);
    EXPECT_EQ(got->hits[0].record.operator_name, "a");
    EXPECT_TRUE(*bank.embedding(got->hits[0].record.id, "embed"));
    ASSERT_TRUE(retrieve(bank, "barrier", {.top_k = 1, .embeddings = &embeddings}));
    EXPECT_EQ(server.received().back().body["input"].size(), 1u) << "record embeddings are cached; only the query is embedded";
}

TEST_F(BankTest, DenseRetrievalFallsBackToTextWhenTheEndpointFails) {
    Bank bank = open();
    ASSERT_TRUE(bank.put(record("a", "kernel.memory.double_buffer", "copy latency exposed", "+x\n")));
    EndpointConfig config;
    config.base_url = "http://127.0.0.1:1/v1";
    config.max_attempts = 1;
    EmbeddingsClient embeddings(std::make_shared<OpenAiEndpoint>(config), "embed");
    auto got = retrieve(bank, "copy latency", {.top_k = 1, .embeddings = &embeddings});
    ASSERT_TRUE(got);
    EXPECT_EQ(got->method, "bm25");
    EXPECT_NE(got->note.find("dense retrieval failed"), std::string::npos);
    EXPECT_EQ(got->hits.size(), 1u);
}

TEST(BankRecord, JsonRoundTripAndValidation) {
    auto r = record("op", "tiling.tile_size", "b", "+d\n");
    r.keywords = {"tile", "dma"};
    auto back = record_from_json(to_json(r));
    ASSERT_TRUE(back);
    EXPECT_EQ(to_json(*back), to_json(r));
    auto j = to_json(r);
    j.erase("diff");
    EXPECT_NE(record_from_json(j).error().message.find("\"diff\""), std::string::npos);
    j = to_json(r);
    j["fast_latency_us"] = "fast";
    EXPECT_FALSE(record_from_json(j));
}

}  // namespace
}  // namespace ascendopt
