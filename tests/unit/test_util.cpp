// util/: SHA-256 vectors, subprocess limits and output capture, atomic writes.
#include <gtest/gtest.h>

#include <thread>

#include "util/file_lock.h"
#include "util/files.h"
#include "util/hash.h"
#include "util/random.h"
#include "util/subprocess.h"
#include "util/task_cap.h"

using namespace ascendopt;

TEST(Sha256, KnownVectors) {
    EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(sha256_hex(std::string(1000000, 'a')), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Subprocess, CapturesOutputAndExitCode) {
    const auto r = run_process({"sh", "-c", "echo hello; echo oops >&2; exit 3"});
    EXPECT_TRUE(r.started);
    EXPECT_EQ(r.exit_code, 3);
    EXPECT_NE(r.output.find("hello"), std::string::npos);
    EXPECT_NE(r.output.find("oops"), std::string::npos);
}

TEST(Subprocess, TimeoutKillsTheWholeGroup) {
    const auto r = run_process({"sh", "-c", "sleep 30 & sleep 30; echo done"}, {.timeout_seconds = 0.5});
    EXPECT_TRUE(r.timed_out);
    EXPECT_LT(r.wall_seconds, 5.0);
    EXPECT_EQ(r.output.find("done"), std::string::npos);
}

TEST(Subprocess, KeepsHeadAndTailOfLongOutput) {
    const auto r = run_process({"sh", "-c", "echo FIRST; seq 1 200000; echo LAST"}, {.keep_bytes = 1024});
    EXPECT_NE(r.output.find("FIRST"), std::string::npos);
    EXPECT_NE(r.output.find("LAST"), std::string::npos);
    EXPECT_NE(r.output.find("bytes omitted"), std::string::npos);
    EXPECT_LT(r.output.size(), 4096u);
}

TEST(Subprocess, MissingProgramIsNotStarted) {
    const auto r = run_process({"/nonexistent/program"});
    EXPECT_FALSE(r.started);
    EXPECT_FALSE(find_program("surely-not-a-program-name").has_value());
}

TEST(Subprocess, RunsInItsFolderWithItsEnvironmentAndLimits) {
    auto dir = make_temp_dir(std::filesystem::temp_directory_path(), "ascendopt-test");
    ASSERT_TRUE(dir);
    const auto r = run_process({"sh", "-c", "pwd; echo \"v=$ASCENDOPT_TEST_VALUE\"; ulimit -v"},
                               {.cwd = *dir, .env = {{"ASCENDOPT_TEST_VALUE", "42"}}, .memory_limit_bytes = 1ull << 30});
    ASSERT_TRUE(r.succeeded()) << r.output;
    EXPECT_NE(r.output.find(std::filesystem::canonical(*dir).string()), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("v=42"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(std::to_string((1ull << 30) / 1024)), std::string::npos) << r.output;  // ulimit -v is in KiB
    std::filesystem::remove_all(*dir);
}

TEST(Subprocess, AMissingFolderIsReportedAndNothingRuns) {
    const auto r = run_process({"sh", "-c", "echo ran"}, {.cwd = "/nonexistent/folder"});
    EXPECT_FALSE(r.started);
    EXPECT_NE(r.output.find("cannot enter /nonexistent/folder"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("ran"), std::string::npos);
}

TEST(Subprocess, ConcurrentCallsKeepTheirOwnOutput) {
    std::vector<std::thread> threads;
    std::vector<ProcessResult> results(8);
    for (int i = 0; i < 8; ++i)
        threads.emplace_back([&, i] { results[size_t(i)] = run_process({"sh", "-c", "echo run-" + std::to_string(i) + "; exit " + std::to_string(i)}); });
    for (auto& t : threads) t.join();
    for (int i = 0; i < 8; ++i) {
        EXPECT_EQ(results[size_t(i)].exit_code, i);
        EXPECT_EQ(results[size_t(i)].output, "run-" + std::to_string(i) + "\n");
    }
}

// Root is exempt from RLIMIT_NPROC; the pids cgroup is what caps a child's tree. Each run of
// the same thread gets the full cap again, and nothing of a run outlives it.
TEST(Subprocess, AChildTreeCannotGrowPastItsTaskCap) {
    if (!tasks_capped()) GTEST_SKIP() << "no pids cgroup on this machine";
    const std::vector<std::string> many = {"/bin/sh", "-c", "n=0; for i in $(seq 1 40); do (sleep 30 >/dev/null 2>&1 &) && n=$((n+1)); done; echo started $n"};
    for (int round = 0; round < 2; ++round) {
        const auto r = run_process(many, {.timeout_seconds = 20, .max_tasks = 12});
        EXPECT_NE(r.output.find("fork"), std::string::npos) << r.output;
        EXPECT_EQ(r.output.find("started 40"), std::string::npos) << r.output;
    }
    const auto uncapped = run_process(many, {.timeout_seconds = 20});
    EXPECT_NE(uncapped.output.find("started 40"), std::string::npos) << uncapped.output;
}

// Files ------------------------------------------------------------------------------------

TEST(Files, AtomicWriteReplacesWhole) {
    auto dir = make_temp_dir(std::filesystem::temp_directory_path(), "ascendopt-test");
    ASSERT_TRUE(dir);
    const auto f = *dir / "x.txt";
    ASSERT_TRUE(write_atomic(f, "first"));
    ASSERT_TRUE(write_atomic(f, "second"));
    EXPECT_EQ(*read_text(f), "second");
    std::filesystem::remove_all(*dir);
}

// A read that fails after the open (a folder: EISDIR) is an error value; an ifstream threw here.
TEST(Files, ReadingAFolderOrAMissingFileIsAnError) {
    auto dir = make_temp_dir(std::filesystem::temp_directory_path(), "ascendopt-test");
    ASSERT_TRUE(dir);
    const auto folder = read_text(*dir);
    ASSERT_FALSE(folder);
    EXPECT_NE(folder.error().message.find("Is a directory"), std::string::npos) << folder.error().message;
    EXPECT_FALSE(read_text(*dir / "missing"));
    const std::string big(200000, 'x');  // more than one read(2)
    ASSERT_TRUE(write_atomic(*dir / "big.txt", big));
    EXPECT_EQ(*read_text(*dir / "big.txt"), big);
    std::filesystem::remove_all(*dir);
}

// One holder at a time, whether the other is this process (threads of one process hold their own
// locks) or another process; a holder that dies releases the lock.
TEST(FileLockTest, OneHolderAtATimeAcrossThreadsAndProcesses) {
    auto dir = make_temp_dir(std::filesystem::temp_directory_path(), "ascendopt-lock-test");
    ASSERT_TRUE(dir);
    ScratchDir cleanup(*dir);
    const auto path = *dir / "job.lock";
    {
        auto held = FileLock::acquire(path);
        ASSERT_TRUE(held) << held.error().message;
        auto again = FileLock::try_acquire(path);
        ASSERT_TRUE(again) << again.error().message;
        EXPECT_FALSE(*again) << "a second holder in the same process";
    }
    {
        auto free_now = FileLock::try_acquire(path);
        ASSERT_TRUE(free_now && *free_now) << "released with its holder";
    }

    // Another process holds it for a while, then exits without unlocking.
    const std::string script = "import fcntl, struct, sys, time\n"
                               "f = open(sys.argv[1], 'w')\n"
                               "fcntl.lockf(f, fcntl.LOCK_EX)\n"
                               "print('locked', flush=True)\n"
                               "time.sleep(1.5)\n";
    std::thread child([&] { run_process({"python3", "-c", script, path.string()}); });
    bool seen_busy = false;
    for (int i = 0; i < 100 && !seen_busy; ++i) {
        auto probe = FileLock::try_acquire(path);
        ASSERT_TRUE(probe) << probe.error().message;
        seen_busy = !*probe;
        if (!seen_busy) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    child.join();
    EXPECT_TRUE(seen_busy) << "the other process's lock was never seen";
    auto after = FileLock::try_acquire(path);
    ASSERT_TRUE(after && *after) << "the lock of a process that ended is gone";
}

TEST(Rng, IsDeterministicAndInRange) {
    Rng a(42), b(42), c(43);
    EXPECT_EQ(a.next(), b.next());
    EXPECT_NE(a.next(), c.next());
    for (int i = 0; i < 1000; ++i) {
        const double u = a.uniform(-2, 3);
        ASSERT_GE(u, -2);
        ASSERT_LT(u, 3);
    }
}
