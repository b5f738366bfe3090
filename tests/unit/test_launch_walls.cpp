// The launcher's walls (eval/candidate_launch.h) hold from the program's first instruction: a
// shell that starts under them cannot fork, whether ascendopt's child installed them or
// bubblewrap did inside its sandbox; a program still loads and reads its files.
#include <gtest/gtest.h>

#include "eval/candidate_launch.h"
#include "support/scratch_test.h"
#include "util/files.h"

namespace ascendopt {
namespace {

const std::vector<std::string> k_forking_shell = {"/bin/sh", "-c", "/bin/true && echo forked"};

TEST(LaunchWalls, AProgramStartsUnderTheWallsTheChildInstalls) {
    const ProcessResult free = run_process(k_forking_shell);
    ASSERT_NE(free.output.find("forked"), std::string::npos) << "without walls the shell forks: " << free.output;
    ProcessOptions walled;
    add_launch_walls(walled, nullptr);
    const ProcessResult r = run_process(k_forking_shell, walled);
    EXPECT_TRUE(r.started) << r.output;
    EXPECT_EQ(r.output.find("forked"), std::string::npos) << r.output;
    EXPECT_FALSE(r.succeeded()) << r.output;
}

TEST(LaunchWalls, BubblewrapInstallsThemInsideItsSandbox) {
    const auto bwrap = working_bubblewrap();
    if (!bwrap) GTEST_SKIP() << "bubblewrap cannot sandbox here: " << bwrap.error().message;
    const ProcessResult free = run_process(sandboxed_argv(*bwrap, k_forking_shell, {}));
    ASSERT_NE(free.output.find("forked"), std::string::npos) << "without walls the shell forks: " << free.output;
    SandboxSpec view;
    ProcessOptions walled;
    add_launch_walls(walled, &view);
    const ProcessResult r = run_process(sandboxed_argv(*bwrap, k_forking_shell, view), walled);
    EXPECT_EQ(r.output.find("forked"), std::string::npos) << r.output;
    EXPECT_FALSE(r.succeeded()) << r.output;
}

class LaunchWallsFiles : public testing::ScratchTest {};

TEST_F(LaunchWallsFiles, AProgramStillLoadsAndReadsItsFiles) {
    ASSERT_TRUE(write_atomic(m_dir / "note.txt", "still readable\n"));
    ProcessOptions walled;
    add_launch_walls(walled, nullptr);
    const ProcessResult r = run_process({"/bin/cat", (m_dir / "note.txt").string()}, walled);
    EXPECT_TRUE(r.succeeded()) << r.output;
    EXPECT_EQ(r.output, "still readable\n");
}

}  // namespace
}  // namespace ascendopt
