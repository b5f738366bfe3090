// The run store and the evaluation ledger: schema versioning, candidates by content, cache
// hits that cost nothing, budget exhaustion, and no committed evaluation lost to kill -9.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "eval/ledger.h"
#include "util/files.h"

using namespace ascendopt;

namespace {

struct TempRun {
    fs::path dir = *make_temp_dir(fs::temp_directory_path(), "ascendopt-run");
    fs::path db = dir / "run.db";
    ~TempRun() { fs::remove_all(dir); }
};

EvaluationRecord ok_record(double latency) {
    EvaluationRecord r;
    r.latency_us = latency;
    r.metrics = {{"bound", "MTE2"}};
    r.seed = 7;
    return r;
}

}  // namespace

TEST(RunStore, StoresCandidatesAndEvaluations) {
    TempRun t;
    auto store = RunStore::open(t.db);
    ASSERT_TRUE(store) << store.error().message;
    auto run = store->open_run("tune", {{"op", "add"}, {"budget", 10}});
    ASSERT_TRUE(run);
    auto a = store->put_candidate({{"op_kernel/a.cpp", "int x;"}});
    auto again = store->put_candidate({{"op_kernel/a.cpp", "int x;"}});
    ASSERT_TRUE(a && again);
    EXPECT_EQ(*a, *again) << "candidates are stored by content";
    EXPECT_EQ(store->candidate_files(*a)->at("op_kernel/a.cpp"), "int x;");

    EvaluationRecord r = ok_record(12.5);
    r.candidate = *a;
    r.config = {{"tile", 4096}, {"buffers", 2}};
    ASSERT_TRUE(store->record(*run, r));
    auto found = store->find(*run, *a, {{"buffers", 2}, {"tile", 4096}});  // key order does not matter
    ASSERT_TRUE(found && *found);
    EXPECT_EQ((*found)->latency_us, 12.5);
    EXPECT_EQ((*found)->metrics["bound"], "MTE2");
    EXPECT_FALSE(*store->find(*run, *a, {{"tile", 8192}, {"buffers", 2}}));
    EXPECT_FALSE(store->record(*run, r)) << "an evaluation is recorded once";
    EXPECT_EQ(*store->open_run("tune", {{"op", "add"}, {"budget", 10}}), *run) << "same settings resume the run";
}

TEST(RunStore, RejectsAnotherSchemaVersion) {
    TempRun t;
    ASSERT_TRUE(RunStore::open(t.db));
    {
        auto db = Db::open(t.db);
        ASSERT_TRUE(db->exec("UPDATE meta SET value = '99' WHERE key = 'schema_version'"));
    }
    auto reopened = RunStore::open(t.db);
    ASSERT_FALSE(reopened);
    EXPECT_NE(reopened.error().message.find("schema version 99"), std::string::npos) << reopened.error().message;
}

TEST(Ledger, RepeatsAreFreeFailuresCostAndBudgetEnds) {
    TempRun t;
    auto store = RunStore::open(t.db);
    const int64_t run = *store->open_run("tune", {{"op", "x"}});
    auto ledger = EvaluationLedger::open(*store, run, 3);
    ASSERT_TRUE(ledger);
    int calls = 0;
    auto evaluate = [&](EvalStatus s) {
        return [&calls, s] {
            ++calls;
            EvaluationRecord r = ok_record(1.0);
            r.status = s;
            return r;
        };
    };
    const std::string cand = *store->put_candidate({{"k.cpp", "a"}});
    auto first = ledger->evaluate(cand, {{"tile", 1}}, evaluate(EvalStatus::ok));
    ASSERT_TRUE(first && *first);
    EXPECT_FALSE((*first)->cached);
    auto repeat = ledger->evaluate(cand, {{"tile", 1}}, evaluate(EvalStatus::ok));
    ASSERT_TRUE(repeat && *repeat);
    EXPECT_TRUE((*repeat)->cached);
    EXPECT_EQ(ledger->budget().used(), 1);
    auto failed = ledger->evaluate(cand, {{"tile", 2}}, evaluate(EvalStatus::resource_exceeded));
    ASSERT_TRUE(failed && *failed);
    EXPECT_EQ((*failed)->record.status, EvalStatus::resource_exceeded);
    EXPECT_EQ(ledger->budget().used(), 2) << "a failed evaluation costs one";
    ASSERT_TRUE(ledger->evaluate(cand, {{"tile", 3}}, evaluate(EvalStatus::ok)));
    auto over = ledger->evaluate(cand, {{"tile", 4}}, evaluate(EvalStatus::ok));
    ASSERT_TRUE(over);
    EXPECT_FALSE(*over) << "budget exhausted";
    EXPECT_EQ(calls, 3);
    auto reopened = EvaluationLedger::open(*store, run, 3);
    EXPECT_TRUE(reopened->budget().exhausted()) << "a resumed run starts with what its store spent";
}

// A writer killed with SIGKILL at an arbitrary moment loses nothing it had committed.
TEST(Ledger, NothingCommittedIsLostToKill9) {
    TempRun t;
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    const pid_t child = fork();
    if (child == 0) {
        close(fds[0]);
        auto store = RunStore::open(t.db);
        const int64_t run = *store->open_run("tune", {{"op", "kill"}});
        auto ledger = EvaluationLedger::open(*store, run, 1000000);
        const std::string cand = *store->put_candidate({{"k.cpp", "a"}});
        for (int i = 0;; ++i) {
            auto e = ledger->evaluate(cand, {{"i", i}}, [] { return ok_record(2.0); });
            if (!e || !*e) _exit(1);
            const int32_t committed = i + 1;
            if (write(fds[1], &committed, sizeof committed) != sizeof committed) _exit(1);
        }
    }
    close(fds[1]);
    int32_t last = 0, got = 0;
    while (last < 200 && read(fds[0], &got, sizeof got) == sizeof got) last = got;
    kill(child, SIGKILL);
    while (read(fds[0], &got, sizeof got) == sizeof got) last = got;  // drain what was reported before death
    close(fds[0]);
    int status = 0;
    waitpid(child, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status));

    auto store = RunStore::open(t.db);
    ASSERT_TRUE(store) << store.error().message;
    auto db = Db::open(t.db);
    auto check = db->prepare("PRAGMA integrity_check");
    ASSERT_TRUE(check && *check->step());
    EXPECT_EQ(check->column_text(0), "ok");
    const int64_t run = *store->open_run("tune", {{"op", "kill"}});
    const int64_t stored = *store->count(run);
    EXPECT_GE(stored, last) << "every evaluation reported as committed is in the store";
    EXPECT_LE(stored, last + 1) << "at most the one in flight was committed without being reported";
}
