// Stage I on the fake evaluator: a scripted model proposes rewrites of suite/untuned/axpb_custom
// and the fake decides what each is worth, so accept/reject, the budget, resume and failures
// are checked without a compiler.
#include <gtest/gtest.h>

#include "agent/stage1.h"
#include "eval/operator_source.h"
#include "support/fake_evaluator.h"
#include "support/scratch_test.h"
#include "util/files.h"

namespace ascendopt {
namespace {

namespace fs = std::filesystem;
using testing::FakeEvaluator;
using testing::FakeVerdict;

const char* k_double_buffer = R"(Double buffering overlaps copies with compute.

op_kernel/axpb_custom.cpp
<<<<<<< SEARCH
constexpr int32_t BUFFER_NUM = 1;
=======
constexpr int32_t BUFFER_NUM = 2;
>>>>>>> REPLACE
)";

// Answers the diagnosis with a reading and every rewrite with `rewrite`.
class ScriptedModel : public Proposer {
public:
    explicit ScriptedModel(std::string rewrite) : m_rewrite(std::move(rewrite)) {}
    Result<ChatReply> propose(const ChatRequest& request) override {
        ++calls;
        ChatReply r;
        r.text = request.purpose == "stage1-diagnose" ? "one buffer per queue exposes the copy latency" : m_rewrite;
        return r;
    }
    std::string describe() const override { return "scripted"; }
    std::string model() const override { return "scripted"; }
    int calls = 0;

private:
    std::string m_rewrite;
};

// 10 us single-buffered; what `double_buffered` says otherwise.
FakeEvaluator::Rule by_buffers(FakeVerdict double_buffered) {
    return [double_buffered](const std::string& sources, const EvalRequest&) {
        return sources.find("BUFFER_NUM = 2") != std::string::npos ? double_buffered : FakeVerdict::passes(10);
    };
}

class Stage1OnFake : public testing::ScratchTest {
protected:
    void SetUp() override {
        ScratchTest::SetUp();
        auto op = load_operator(fs::path(ASCENDOPT_TEST_SOURCE_DIR) / "suite" / "untuned" / "axpb_custom");
        ASSERT_TRUE(op) << op.error().message;
        m_op = *op;
        ASSERT_TRUE(write_atomic(m_dir / "bank.db", ""));
    }

    // One Stage I run in the run store under the test's folder (the same store on every call,
    // so a second call is a rerun), with `model` or, without one, the transfer proposer.
    Result<Stage1Result> run(FakeEvaluator& fake, Proposer& model, int64_t budget) {
        return run_with(fake, {.budget = budget, .proposer = &model, .templates = &m_templates});
    }
    // Without a model: the transfer proposer, `top_k` records that yield a candidate per round.
    Result<Stage1Result> run_offline(FakeEvaluator& fake, int64_t budget, size_t top_k) { return run_with(fake, {.budget = budget, .top_k = top_k}); }

    Result<Stage1Result> run_with(FakeEvaluator& fake, const Stage1Options& options) {
        auto store = RunStore::open(m_dir / "run.db");
        if (!store) return store.error();
        auto run = store->open_run("stage1-test", {{"budget", options.budget}});
        if (!run) return run.error();
        auto bank = Bank::open(m_dir / "bank.db");
        if (!bank) return bank.error();
        auto session = CandidateSession::open(m_op, fake, {*store, *run, options.budget, m_dir});
        if (!session) return session.error();
        auto r = run_stage1((*session)->runner(), *bank, options);
        used = (*session)->ledger().budget().used();
        return r;
    }

    void put_record(const std::string& family, const std::string& bottleneck) {
        ExperienceRecord r;
        r.operator_name = "elsewhere";
        r.family = family;
        r.title = bottleneck;
        r.bottleneck = bottleneck;
        r.diff = "--- a/op_kernel/other.cpp\n+++ b/op_kernel/other.cpp\n@@ -1 +1 @@\n-" + family + "\n+x\n";
        r.slow_latency_us = 20;
        r.fast_latency_us = 10;
        r.soc = "Ascend910B2";
        r.provenance = nlohmann::json::array({{{"source", "test"}}});
        auto bank = Bank::open(m_dir / "bank.db");
        ASSERT_TRUE(bank && bank->put(r));
    }

    OperatorSource m_op;
    TemplateStore m_templates{fs::path(ASCENDOPT_TEST_SOURCE_DIR) / "share" / "templates"};
    int64_t used = 0;
};

TEST_F(Stage1OnFake, TheTransferProposerLooksPastRecordsThatDoNotApply) {
    // Ranked first: records whose diff fits nothing here and whose family has no rule. The one
    // that applies (double buffering, as a rule) ranks last and is still reached with top_k 1.
    for (int i = 0; i < 3; ++i) put_record("tiling.tile_size", "single buffered queues BUFFER_NUM MTE2 copy latency exposed overlap compute " + std::to_string(i));
    put_record("kernel.memory.double_buffer", "queues");
    FakeEvaluator fake(by_buffers(FakeVerdict::passes(6)));
    auto r = run_offline(fake, 4, 1);
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->accepted.size(), 1u);
    EXPECT_EQ(r->accepted[0].applied_as, "rule double_buffer");
    EXPECT_EQ(r->best_us, 6);
    ASSERT_GE(r->attempts.size(), 2u);
    EXPECT_EQ(r->attempts[0].outcome, "does not apply");
    EXPECT_EQ(fake.evaluations(), 2) << "the baseline and the one candidate: records that do not apply cost nothing";
}

TEST_F(Stage1OnFake, AFasterCorrectRewriteIsAccepted) {
    FakeEvaluator fake(by_buffers(FakeVerdict::passes(6)));
    ScriptedModel model(k_double_buffer);
    auto r = run(fake, model, 4);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->baseline_us, 10);
    EXPECT_EQ(r->best_us, 6);
    ASSERT_EQ(r->accepted.size(), 1u);
    EXPECT_NE(r->best.at("op_kernel/axpb_custom.cpp").find("BUFFER_NUM = 2"), std::string::npos);
    EXPECT_NE(r->diagnoses.at(0).find("one buffer per queue"), std::string::npos) << "the model's reading joins the rules'";
}

TEST_F(Stage1OnFake, AWrongRewriteIsRejectedHoweverFast) {
    FakeEvaluator fake(by_buffers(FakeVerdict::fails(EvalStatus::wrong_result, "y: 12 of 4096 elements differ")));
    ScriptedModel model(k_double_buffer);
    auto r = run(fake, model, 4);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_TRUE(r->accepted.empty());
    EXPECT_EQ(r->best_us, 10);
    EXPECT_NE(r->best.at("op_kernel/axpb_custom.cpp").find("BUFFER_NUM = 1"), std::string::npos);
}

// A race as the twin reports it: `earlier` and `later` are "PIPE:API".
nlohmann::json race(const std::string& kind, const std::string& earlier, const std::string& later) {
    auto site = [](const std::string& s) {
        return nlohmann::json{{"pipe", s.substr(0, s.find(':'))}, {"api", s.substr(s.find(':') + 1)}, {"where", "op_kernel/x.cpp:1"}};
    };
    return {{"kind", kind}, {"memory", "UB"}, {"earlier", site(earlier)}, {"later", site(later)}, {"buffer", "in buffer 1"}};
}

TEST_F(Stage1OnFake, ARewriteWithARaceItsOriginalLacksIsRejectedHoweverFast) {
    const auto inherited = race("read after write", "S:ub_scalar_write", "V:Mul");
    const auto dropped_flag = race("read after write", "V:Add", "MTE3:DataCopy");
    FakeEvaluator fake([&](const std::string& sources, const EvalRequest&) {
        const bool rewritten = sources.find("BUFFER_NUM = 2") != std::string::npos;
        return rewritten ? FakeVerdict::passes(6).with_races({inherited, dropped_flag}) : FakeVerdict::passes(10).with_races({inherited});
    });
    ScriptedModel model(k_double_buffer);
    auto r = run(fake, model, 4);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_TRUE(r->accepted.empty());
    EXPECT_EQ(r->best_us, 10);
    ASSERT_FALSE(r->attempts.empty());
    EXPECT_NE(r->attempts.back().outcome.find("a race the original does not have: V writes"), std::string::npos) << r->attempts.back().outcome;
}

TEST_F(Stage1OnFake, ARaceTheOriginalAlreadyHasDoesNotBlockARewrite) {
    const auto inherited = race("read after write", "S:ub_scalar_write", "V:Mul");
    FakeEvaluator fake([&](const std::string& sources, const EvalRequest&) {
        const bool rewritten = sources.find("BUFFER_NUM = 2") != std::string::npos;
        return (rewritten ? FakeVerdict::passes(6) : FakeVerdict::passes(10)).with_races({inherited});
    });
    ScriptedModel model(k_double_buffer);
    auto r = run(fake, model, 4);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->accepted.size(), 1u);
    EXPECT_EQ(r->best_us, 6);
}

// --robust: the nominal SoC and one variant (marked in the description the fake receives).
EvalOptions robust_options() {
    EvalOptions o;
    o.robust = true;
    o.robust_variants = nlohmann::json::array({{{"label", "nominal"}, {"soc", {{"variant", 0}}}},
                                               {{"label", "mte.latency_cycles=low"}, {"soc", {{"variant", 1}}}}});
    return o;
}

TEST_F(Stage1OnFake, UnderRobustARewriteSlowerAtOneEndOfARangeIsRefused) {
    FakeEvaluator fake(
        [](const std::string& sources, const EvalRequest& r) {
            const bool low = r.soc_description && r.soc_description->value("variant", 0) == 1;
            if (sources.find("BUFFER_NUM = 2") == std::string::npos) return FakeVerdict::passes(10);
            return FakeVerdict::passes(low ? 11 : 6);  // double buffering loses when the DMA latency is low
        },
        robust_options());
    ScriptedModel model(k_double_buffer);
    auto r = run(fake, model, 4);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_TRUE(r->accepted.empty());
    EXPECT_EQ(r->best_us, 10);
    ASSERT_FALSE(r->attempts.empty());
    EXPECT_NE(r->attempts.back().outcome.find("not faster everywhere (1.667x on the nominal SoC, 0.909x at mte.latency_cycles=low)"),
              std::string::npos)
        << r->attempts.back().outcome;
    EXPECT_EQ(used, 2) << "the re-timings cost no budget";
}

TEST_F(Stage1OnFake, UnderRobustARewriteFasterEverywhereIsAccepted) {
    FakeEvaluator fake(
        [](const std::string& sources, const EvalRequest& r) {
            const bool low = r.soc_description && r.soc_description->value("variant", 0) == 1;
            if (sources.find("BUFFER_NUM = 2") == std::string::npos) return FakeVerdict::passes(10);
            return FakeVerdict::passes(low ? 8 : 6);
        },
        robust_options());
    ScriptedModel model(k_double_buffer);
    auto r = run(fake, model, 4);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->accepted.size(), 1u);
    EXPECT_EQ(r->best_us, 6);
}

TEST_F(Stage1OnFake, ARewriteWithinTheNoiseIsNotAccepted) {
    FakeEvaluator fake(by_buffers(FakeVerdict::passes(9.9)));  // 1% faster: under the 2% threshold
    ScriptedModel model(k_double_buffer);
    auto r = run(fake, model, 4);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_TRUE(r->accepted.empty());
    EXPECT_EQ(r->best_us, 10);
}

TEST_F(Stage1OnFake, TheBudgetIsNeverExceeded) {
    FakeEvaluator fake(by_buffers(FakeVerdict::passes(6)));
    ScriptedModel model(k_double_buffer);
    auto r = run(fake, model, 1);  // the baseline takes it all
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(fake.evaluations(), 1);
    EXPECT_EQ(used, 1);
    EXPECT_TRUE(r->accepted.empty());
}

TEST_F(Stage1OnFake, ARerunPaysForNothingTwice) {
    FakeEvaluator first(by_buffers(FakeVerdict::passes(6)));
    ScriptedModel model(k_double_buffer);
    auto a = run(first, model, 4);
    ASSERT_TRUE(a) << a.error().message;
    const int paid = first.evaluations();
    EXPECT_GE(paid, 2);
    FakeEvaluator second(by_buffers(FakeVerdict::passes(6)));
    auto b = run(second, model, 4);
    ASSERT_TRUE(b) << b.error().message;
    EXPECT_EQ(b->best_us, a->best_us);
    EXPECT_EQ(second.evaluations(), 0) << "the run store answers every candidate it has seen";
}

TEST_F(Stage1OnFake, AnOperatorThatFailsItsCasesIsAnError) {
    FakeEvaluator fake([](const std::string&, const EvalRequest&) { return FakeVerdict::fails(EvalStatus::run_failed, "segfault"); });
    ScriptedModel model(k_double_buffer);
    auto r = run(fake, model, 4);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("does not pass its cases"), std::string::npos) << r.error().message;
    EXPECT_EQ(model.calls, 0) << "no model call for an operator that is wrong to begin with";
}

}  // namespace
}  // namespace ascendopt
