// The openevolve method's program database: MAP-Elites cells per island, parent and
// inspiration sampling, migration; and the suite's levels (study/suite.h).
#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include "study/program_db.h"
#include "study/suite.h"
#include "util/files.h"

namespace ascendopt {
namespace {

Program program(double latency, const std::string& pipe, size_t changed, const std::string& tag) {
    return {{{"op_kernel/k.cpp", tag}}, latency, pipe, changed, std::nullopt, 0};
}

TEST(ProgramDb, ChangeBinsAreZeroSmallMediumLarge) {
    EXPECT_EQ(change_bin(0), 0u);
    EXPECT_EQ(change_bin(1), 1u);
    EXPECT_EQ(change_bin(10), 1u);
    EXPECT_EQ(change_bin(11), 2u);
    EXPECT_EQ(change_bin(40), 2u);
    EXPECT_EQ(change_bin(41), 3u);
}

TEST(ProgramDb, ACellKeepsItsFastestProgramAndOtherFeaturesGetTheirOwnCell) {
    ProgramDatabase db({.islands = 2}, 7);
    db.seed(program(10, "MTE2", 0, "start"));
    const size_t slow = db.add(program(9, "MTE2", 3, "slow"), 0);
    const size_t fast = db.add(program(8, "MTE2", 5, "fast"), 0);    // same cell (MTE2, 1-10 lines): replaces `slow`
    const size_t other = db.add(program(9.5, "V", 5, "vector"), 0);  // another cell
    const auto grid = db.to_json()["islands"][0];
    std::set<size_t> held;
    for (const auto& cell : grid) held.insert(cell["program"].get<size_t>());
    EXPECT_EQ(held, (std::set<size_t>{0, fast, other}));
    EXPECT_FALSE(held.count(slow));
    EXPECT_EQ(db.to_json()["islands"][1].size(), 1u) << "island 1 holds only the start";
    EXPECT_EQ(db.best(), fast);
}

TEST(ProgramDb, ParentsComeFromTheIslandAndTheSameSeedDrawsTheSame) {
    auto draws = [](uint64_t seed) {
        ProgramDatabase db({.islands = 2, .exploitation = 0.5, .exploration = 0.5}, seed);  // no draws from other islands
        db.seed(program(10, "MTE2", 0, "start"));
        db.add(program(8, "V", 5, "a"), 0);
        db.add(program(7, "S", 20, "b"), 0);
        db.add(program(6, "S", 50, "c"), 1);
        std::vector<size_t> out;
        for (int i = 0; i < 40; ++i) out.push_back(db.sample_parent(0));
        return out;
    };
    const auto a = draws(3);
    EXPECT_EQ(a, draws(3));
    for (size_t p : a) EXPECT_NE(p, 3u) << "program 3 lives on island 1";
    EXPECT_EQ(std::set<size_t>(a.begin(), a.end()).size(), 3u) << "every program of island 0 is drawn sometimes";
}

TEST(ProgramDb, InspirationsLeaveOutTheParentAndStartWithTheIslandsBest) {
    ProgramDatabase db({.islands = 1, .inspirations = 2}, 1);
    db.seed(program(10, "MTE2", 0, "start"));
    const size_t best = db.add(program(5, "V", 5, "best"), 0);
    db.add(program(7, "S", 20, "other"), 0);
    const auto of_start = db.inspirations(0, 0);
    ASSERT_FALSE(of_start.empty());
    EXPECT_EQ(of_start.front(), best);
    for (size_t i : db.inspirations(0, best)) EXPECT_NE(i, best);
}

TEST(ProgramDb, MigrationCopiesEachIslandsBestToTheNextIsland) {
    ProgramDatabase db({.islands = 3}, 1);
    db.seed(program(10, "MTE2", 0, "start"));
    const size_t fast = db.add(program(4, "V", 5, "fast"), 1);
    EXPECT_EQ(db.migrate(), 1u) << "only island 1's best is new to its neighbour";
    const auto island2 = db.to_json()["islands"][2];
    bool found = false;
    for (const auto& cell : island2) found |= cell["program"].get<size_t>() == fast;
    EXPECT_TRUE(found);
    EXPECT_EQ(db.migrate(), 1u) << "then on to island 0";
    EXPECT_EQ(db.migrate(), 0u) << "every island holds it";
}

TEST(Suite, LevelsComeFromSuiteTomlAndUnlistedOperatorsAreOther) {
    const auto dir = *make_temp_dir(std::filesystem::temp_directory_path(), "suite-test");
    ScratchDir cleanup(dir);
    for (const char* op : {"a_op", "b_op", "c_op"}) {
        std::filesystem::create_directories(dir / op / "op_host");
        std::filesystem::create_directories(dir / op / "op_kernel");
    }
    std::filesystem::create_directories(dir / "b_op" / "baseline" / "op_host");
    std::filesystem::create_directories(dir / "b_op" / "baseline" / "op_kernel");
    auto flat = study_targets(dir);
    ASSERT_TRUE(flat) << flat.error().message;
    ASSERT_EQ(flat->size(), 3u);
    EXPECT_EQ((*flat)[0].level, "all");
    EXPECT_EQ((*flat)[1].dir, dir / "b_op" / "baseline");
    EXPECT_EQ((*flat)[1].op, "b_op");
    std::ofstream(dir / "suite.toml") << "[levels]\nl1 = [\"a_op\", \"b_op\"]\n";
    auto leveled = study_targets(dir);
    ASSERT_TRUE(leveled);
    EXPECT_EQ((*leveled)[0].level, "l1");
    EXPECT_EQ((*leveled)[2].level, "other");
    // A cann-ops checkout: src/<category>/<operator>, the category as the level.
    std::filesystem::create_directories(dir / "math" / "d_op" / "op_host");
    std::filesystem::create_directories(dir / "math" / "d_op" / "op_kernel");
    std::filesystem::remove(dir / "suite.toml");
    auto nested = study_targets(dir);
    ASSERT_TRUE(nested);
    ASSERT_EQ(nested->size(), 4u);
    EXPECT_EQ((*nested)[3].op, "d_op");
    EXPECT_EQ((*nested)[3].level, "math");
    std::filesystem::create_directories(dir / "nn" / "a_op" / "op_host");
    std::filesystem::create_directories(dir / "nn" / "a_op" / "op_kernel");
    EXPECT_FALSE(study_targets(dir)) << "two operators named a_op";
    std::filesystem::remove_all(dir / "nn");
    std::ofstream(dir / "suite.toml") << "[levels]\nl1 = \"a_op\"\n";
    auto bad = study_targets(dir);
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("must be a list"), std::string::npos);
}

}  // namespace
}  // namespace ascendopt
