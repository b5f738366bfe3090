// The hazard checker's ordering rules (twin/rt/hazard.h), driven directly: each seeded race of
// the kinds the issue names is found, and its correctly synchronised form is not.
#include <gtest/gtest.h>

#include "hazard.h"

using namespace ascendopt_twin;

namespace {

constexpr int S = int(PipeId::S), V = int(PipeId::V), MTE2 = int(PipeId::MTE2), MTE3 = int(PipeId::MTE3);

Site at(const char* api, uintptr_t pc) {
    Site s;
    s.api = api;
    s.pcs[0] = pc;
    return s;
}

void write(HazardChecker& h, int pipe, uint32_t offset, uint32_t bytes, const char* api = "w", uintptr_t pc = 1) {
    const MemAccess a{Mem::UB, offset, bytes, true};
    h.instruction(PipeId(pipe), &a, 1, at(api, pc));
}
void read(HazardChecker& h, int pipe, uint32_t offset, uint32_t bytes, const char* api = "r", uintptr_t pc = 2) {
    const MemAccess a{Mem::UB, offset, bytes, false};
    h.instruction(PipeId(pipe), &a, 1, at(api, pc));
}
void sync(HazardChecker& h, int src, int dst) {
    h.flag(true, src, dst, 0);
    h.flag(false, src, dst, 0);
}

struct Seeded {
    const char* name;
    int first, second;
    bool first_writes, second_writes;
    HazardKind kind;
};

}  // namespace

class SeededRace : public ::testing::TestWithParam<Seeded> {};

TEST_P(SeededRace, IsFoundWithoutItsFlagAndNotWithIt) {
    const Seeded& s = GetParam();
    auto run = [&](bool synced) {
        HazardChecker h;
        if (s.first_writes) write(h, s.first, 0, 256, "first", 10);
        else read(h, s.first, 0, 256, "first", 10);
        if (synced) sync(h, s.first, s.second);
        if (s.second_writes) write(h, s.second, 64, 32, "second", 20);
        else read(h, s.second, 64, 32, "second", 20);
        return h.races();
    };
    const auto races = run(false);
    ASSERT_EQ(races.size(), 1u) << s.name;
    EXPECT_EQ(races[0].kind, s.kind);
    EXPECT_EQ(int(races[0].earlier_pipe), s.first);
    EXPECT_EQ(int(races[0].later_pipe), s.second);
    EXPECT_STREQ(races[0].earlier.api, "first");
    EXPECT_STREQ(races[0].later.api, "second");
    EXPECT_EQ(races[0].first_byte, 64u);
    EXPECT_EQ(races[0].last_byte, 95u);
    EXPECT_TRUE(run(true).empty()) << s.name;
}

INSTANTIATE_TEST_SUITE_P(Kinds, SeededRace,
                         ::testing::Values(Seeded{"V_S", V, S, true, false, HazardKind::read_after_write},
                                           Seeded{"MTE2_V", MTE2, V, true, false, HazardKind::read_after_write},
                                           Seeded{"V_MTE3", V, MTE3, true, false, HazardKind::read_after_write},
                                           Seeded{"S_V", S, V, true, false, HazardKind::read_after_write},
                                           Seeded{"MTE3_MTE2", MTE3, MTE2, false, true, HazardKind::write_after_read},
                                           Seeded{"V_MTE2_overwrite", V, MTE2, true, true, HazardKind::write_after_write}),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(HazardChecker, OnePipeIsInOrder) {
    HazardChecker h;
    write(h, V, 0, 64);
    read(h, V, 0, 64);
    write(h, V, 0, 64);
    EXPECT_TRUE(h.races().empty());
}

TEST(HazardChecker, DisjointBlocksDoNotRace) {
    HazardChecker h;
    write(h, MTE2, 0, 64);
    read(h, V, 64, 64);  // the next two 32-byte blocks
    EXPECT_TRUE(h.races().empty());
}

TEST(HazardChecker, OrderingIsTransitive) {
    HazardChecker h;
    write(h, MTE2, 0, 64);
    sync(h, MTE2, V);  // V follows the load
    read(h, V, 0, 64);
    sync(h, V, MTE3);  // MTE3 follows V, and so the load too
    read(h, MTE3, 0, 64);
    EXPECT_TRUE(h.races().empty());
}

TEST(HazardChecker, AFlagOrdersOnlyWhatWasIssuedBeforeItsSet) {
    HazardChecker h;
    h.flag(true, MTE2, V, 0);
    write(h, MTE2, 0, 64);  // after the set: not covered
    h.flag(false, MTE2, V, 0);
    read(h, V, 0, 64);
    EXPECT_EQ(h.races().size(), 1u);
}

TEST(HazardChecker, AWaitOnAnotherEventIdOrdersNothing) {
    HazardChecker h;
    write(h, V, 0, 64);
    h.flag(true, V, MTE3, 1);
    h.flag(false, V, MTE3, 2);
    read(h, MTE3, 0, 64);
    EXPECT_EQ(h.races().size(), 1u);
}

TEST(HazardChecker, ABarrierOfAllPipesOrdersEverything) {
    HazardChecker h;
    write(h, MTE2, 0, 64);
    write(h, S, 64, 8);
    read(h, V, 192, 32);
    h.barrier_all();
    read(h, V, 0, 96);       // after both writes
    write(h, MTE2, 192, 32);  // after V's earlier read
    EXPECT_TRUE(h.races().empty());
}

TEST(HazardChecker, AQueueHandOffOrdersItsPipesAndItsBuffer) {
    HazardChecker h;
    write(h, MTE2, 0, 256);    // into the queue's buffer
    write(h, MTE2, 512, 64);   // into another buffer, before the EnQue
    h.release(7, MTE2);        // EnQue of a VECIN queue: MTE2 -> V
    h.acquire(7, V, Mem::UB, 0, 256);
    read(h, V, 0, 256);
    read(h, V, 512, 64);       // the hand-off's flag covers the earlier load too
    EXPECT_TRUE(h.races().empty());
    write(h, MTE2, 1024, 64);  // after the hand-off: not covered
    read(h, V, 1024, 64);
    EXPECT_EQ(h.races().size(), 1u);
}

TEST(HazardChecker, AScalarReadIsDoneBeforeTheNextInstructionIssues) {
    HazardChecker h;
    write(h, V, 0, 32);
    sync(h, V, S);
    read(h, S, 0, 4);
    write(h, V, 0, 32);  // overwriting what S read: S finished reading when it issued this
    EXPECT_TRUE(h.races().empty());
}

TEST(HazardChecker, RepeatedRacesOfOnePairAreOneEntry) {
    HazardChecker h;
    for (int i = 0; i < 10; ++i) {
        write(h, V, 0, 128, "Add", 5);
        read(h, MTE3, 0, 128, "DataCopy", 6);
        sync(h, MTE3, V);
    }
    ASSERT_EQ(h.races().size(), 1u);
    EXPECT_EQ(h.races()[0].count, 40u);  // four blocks, ten times
}
