// Launch: blocks run as threads with their own GetBlockIdx; SyncAll is a real barrier.
#include <gtest/gtest.h>

#include <atomic>

#include "kernel_operator.h"
#include "test_soc.h"
#include "twin_rt.h"

using namespace AscendC;

namespace {

// Each block writes its index to its slot, SyncAll, then sums all slots into its output.
extern "C" void sync_sum_kernel(GM_ADDR slots, GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling) {
    GlobalTensor<int32_t> s, o;
    s.SetGlobalBuffer(reinterpret_cast<int32_t*>(slots), GetBlockNum());
    o.SetGlobalBuffer(reinterpret_cast<int32_t*>(out), GetBlockNum());
    s.SetValue(GetBlockIdx(), int32_t(GetBlockIdx() + 1));
    SyncAll();
    int32_t sum = 0;
    for (int64_t i = 0; i < GetBlockNum(); ++i) sum += s.GetValue(i);
    o.SetValue(GetBlockIdx(), sum);
}

// Only block 0 calls SyncAll: on an NPU this hangs; the twin must report it.
extern "C" void unbalanced_sync_kernel(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR) {
    if (GetBlockIdx() == 0) SyncAll();
}

}  // namespace

TEST(Launch, BlocksSeeTheirIndexAndSyncAllIsABarrier) {
    const auto* soc = &ascendopt_twin::testing::test_soc();
    ascendopt_twin::GmSpace gm(1 << 20);
    const uint32_t blocks = 48;
    uint8_t* slots = gm.add("slots", blocks * 4);
    uint8_t* out = gm.add("out", blocks * 4);
    auto launched = ascendopt_twin::launch(*soc, reinterpret_cast<void*>(&sync_sum_kernel),
                                         {slots, out, gm.add("ws", 0), gm.add("tiling", 0)}, blocks, 0, gm);
    const auto* result = reinterpret_cast<const int32_t*>(gm.host(out));
    for (uint32_t b = 0; b < blocks; ++b) ASSERT_EQ(result[b], int32_t(blocks * (blocks + 1) / 2)) << b;
    EXPECT_EQ(launched.counts.by_kind["sync_all"], blocks);
}

TEST(Launch, UnbalancedSyncAllIsAnError) {
    const auto* soc = &ascendopt_twin::testing::test_soc();
    ascendopt_twin::GmSpace gm(1 << 20);
    try {
        ascendopt_twin::launch(*soc, reinterpret_cast<void*>(&unbalanced_sync_kernel),
                               {gm.add("a", 32), gm.add("b", 32), gm.add("ws", 0), gm.add("t", 0)}, 4, 0, gm);
        ADD_FAILURE() << "expected an error";
    } catch (const ascendopt_twin::TwinError& e) {
        EXPECT_NE(std::string(e.what()).find("every block must call SyncAll the same number of times"), std::string::npos)
            << e.what();
    }
}
