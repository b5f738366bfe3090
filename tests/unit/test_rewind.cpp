// Offline rewind on the fake evaluator: each hunk between ops/clip_custom and its baseline/ is
// undone alone, and only a reversion that is correct and measurably slower becomes a record.
#include <gtest/gtest.h>

#include "agent/rewind.h"
#include "support/fake_evaluator.h"
#include "support/scratch_test.h"
#include "util/files.h"

namespace ascendopt {
namespace {

namespace fs = std::filesystem;
using testing::FakeEvaluator;
using testing::FakeVerdict;

class RewindOnFake : public testing::ScratchTest {
protected:
    void SetUp() override {
        ScratchTest::SetUp();
        const fs::path root = fs::path(ASCENDOPT_TEST_SOURCE_DIR) / "ops" / "clip_custom";
        auto strong = load_operator(root);
        auto baseline = load_operator(root / "baseline");
        ASSERT_TRUE(strong && baseline);
        m_strong = *strong;
        m_baseline = *baseline;
    }

    Result<RewindReport> rewind(FakeEvaluator& fake, int64_t budget, Bank& bank, bool by_rules = false) {
        auto store = RunStore::open(m_dir / "run.db");
        if (!store) return store.error();
        auto run = store->open_run("rewind-test", {{"budget", budget}});
        if (!run) return run.error();
        auto session = CandidateSession::open(m_strong, fake, {*store, *run, budget, m_dir});
        if (!session) return session.error();
        if (by_rules) return rewind_by_rules((*session)->runner(), bank, {.run = *run});
        return rewind_pair((*session)->runner(), m_baseline, bank, {.run = *run});
    }

    OperatorSource m_strong, m_baseline;
};

// Single buffering costs 50%; the full barrier costs nothing measurable.
FakeVerdict clip_latency(const std::string& sources, const EvalRequest&) {
    return FakeVerdict::passes(sources.find("BUFFER_NUM = 1") != std::string::npos ? 12 : 8);
}

TEST_F(RewindOnFake, OnlyAReversionThatHurtsBecomesARecord) {
    FakeEvaluator fake(clip_latency);
    auto bank = Bank::open(m_dir / "bank.db");
    ASSERT_TRUE(bank);
    auto r = rewind(fake, 10, *bank);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->strong_latency_us, 8);
    ASSERT_EQ(r->records.size(), 1u) << "the barrier hunk is not slower, so only double buffering is kept";
    auto rec = bank->get(r->records[0]);
    ASSERT_TRUE(rec && *rec);
    EXPECT_EQ((*rec)->slow_latency_us, 12);
    EXPECT_EQ((*rec)->fast_latency_us, 8);
    EXPECT_NE((*rec)->diff.find("BUFFER_NUM = 2"), std::string::npos) << (*rec)->diff;
}

TEST_F(RewindOnFake, AWrongReversionIsNoRecord) {
    FakeEvaluator fake([](const std::string& sources, const EvalRequest& r) {
        if (sources.find("BUFFER_NUM = 1") != std::string::npos) return FakeVerdict::fails(EvalStatus::wrong_result, "y differs");
        return clip_latency(sources, r);
    });
    auto bank = Bank::open(m_dir / "bank.db");
    ASSERT_TRUE(bank);
    auto r = rewind(fake, 10, *bank);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_TRUE(r->records.empty());
}

// A reversion that is slower only because it races (it drops a flag the strong version needs)
// teaches nothing: the checker's race the strong version lacks makes it no record.
TEST_F(RewindOnFake, AReversionWithANewRaceIsNoRecord) {
    const nlohmann::json race = {{"kind", "read after write"},
                                 {"earlier", {{"pipe", "V"}, {"api", "Maxs"}, {"where", "op_kernel/clip_custom.cpp:40"}}},
                                 {"later", {{"pipe", "MTE3"}, {"api", "DataCopy"}, {"where", "op_kernel/clip_custom.cpp:48"}}}};
    FakeEvaluator fake([&](const std::string& sources, const EvalRequest& r) {
        FakeVerdict v = clip_latency(sources, r);
        if (sources.find("BUFFER_NUM = 1") != std::string::npos) v.races = nlohmann::json::array({race});
        return v;
    });
    auto bank = Bank::open(m_dir / "bank.db");
    ASSERT_TRUE(bank);
    auto r = rewind(fake, 10, *bank);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_TRUE(r->records.empty());
}

TEST_F(RewindOnFake, AnExhaustedBudgetStopsIt) {
    FakeEvaluator fake(clip_latency);
    auto bank = Bank::open(m_dir / "bank.db");
    ASSERT_TRUE(bank);
    auto r = rewind(fake, 1, *bank);  // the strong version's measurement takes it all
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(fake.evaluations(), 1);
    EXPECT_TRUE(r->records.empty());
    ASSERT_FALSE(r->steps.empty());
    EXPECT_EQ(r->steps.back().outcome, "budget spent");
}

// Rule-based rewind of clip_custom alone: single buffering costs 4 us, full barriers 2 us on
// top, fewer cores nothing here. The chain goes on from each slower version.
TEST_F(RewindOnFake, RulesOnAnOperatorThatComesAlone) {
    FakeEvaluator fake([](const std::string& sources, const EvalRequest&) {
        double us = 8;
        if (sources.find(", 1, tileLength") != std::string::npos) us += 4;
        if (sources.find("PipeBarrier<PIPE_ALL>") != std::string::npos) us += 2;
        return FakeVerdict::passes(us);
    });
    auto bank = Bank::open(m_dir / "bank.db");
    ASSERT_TRUE(bank);
    auto r = rewind(fake, 20, *bank, true);
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->records.size(), 2u);
    auto buffers = bank->get(r->records[0]);
    auto barriers = bank->get(r->records[1]);
    ASSERT_TRUE(buffers && *buffers && barriers && *barriers);
    EXPECT_EQ((*buffers)->family, "kernel.memory.double_buffer");
    EXPECT_EQ((*buffers)->slow_latency_us, 12);
    EXPECT_EQ((*buffers)->fast_latency_us, 8);
    EXPECT_EQ((*barriers)->family, "kernel.sync.elimination");
    EXPECT_EQ((*barriers)->fast_latency_us, 12) << "chained: its fast side is the single-buffered version";
    EXPECT_EQ((*barriers)->slow_latency_us, 14);
    EXPECT_EQ((*barriers)->provenance[0]["rule"], "full_barriers");
    ASSERT_EQ(r->steps.size(), 5u);
    EXPECT_EQ(r->steps[2].outcome, "does not apply") << "clip_custom sizes its tiles by constants, not by the UB it is given";
    EXPECT_NE(r->steps[3].outcome.find("not slower"), std::string::npos) << r->steps[3].outcome;
    EXPECT_EQ(r->steps[4].outcome, "does not apply") << "clip_custom fills nothing with Duplicate";
}

}  // namespace
}  // namespace ascendopt
