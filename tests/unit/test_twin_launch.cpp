// Launch: blocks run as threads with their own GetBlockIdx; SyncAll is a real barrier.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>

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

// Allocates `tile` bytes of UB twice (double buffering), then copies its share of x to y.
extern "C" void staged_copy_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR, GM_ADDR tiling) {
    uint32_t tile = 0;
    ascendopt_twin::load_tiling(&tile, sizeof tile, tiling);
    TPipe pipe;
    TQue<TPosition::VECIN, 2> q;
    pipe.InitBuffer(q, 2, tile);
    GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer(reinterpret_cast<float*>(x) + GetBlockIdx() * 8, 8);
    gy.SetGlobalBuffer(reinterpret_cast<float*>(y) + GetBlockIdx() * 8, 8);
    LocalTensor<float> t = q.AllocTensor<float>();
    DataCopy(t, gx, 8);
    q.EnQue(t);
    t = q.DeQue<float>();
    DataCopy(gy, t, 8);
    q.FreeTensor(t);
}

ascendopt_twin::LaunchResult launch_staged_copy(ascendopt_twin::GmSpace& gm, uint8_t* y, uint32_t tile, bool preflight) {
    uint8_t* x = gm.add("x", 4 * 8 * 4);
    for (int i = 0; i < 32; ++i) reinterpret_cast<float*>(gm.host(x))[i] = float(i);
    uint8_t* tiling = gm.add("tiling", sizeof tile);
    std::memcpy(gm.host(tiling), &tile, sizeof tile);
    ascendopt_twin::LaunchOptions options;
    options.preflight = preflight;
    return ascendopt_twin::launch(ascendopt_twin::testing::test_soc(), reinterpret_cast<void*>(&staged_copy_kernel),
                                  {x, y, gm.add("ws", 0), tiling}, 4, 0, gm, options);
}

}  // namespace

TEST(Launch, PreflightStopsAtTheFirstDataAccessAndReportsUb) {
    ascendopt_twin::GmSpace gm(1 << 20);
    uint8_t* y = gm.add("y", 4 * 8 * 4);
    std::memset(gm.host(y), 0xFF, 4 * 8 * 4);
    const auto r = launch_staged_copy(gm, y, 4096, true);
    EXPECT_EQ(r.ub_bytes, 2u * 4096u);
    EXPECT_EQ(r.counts.count[size_t(ascendopt_twin::PipeId::MTE2)], 0u);
    EXPECT_EQ(reinterpret_cast<const uint32_t*>(gm.host(y))[0], 0xFFFFFFFFu);  // nothing was copied

    const auto full = launch_staged_copy(gm, y, 4096, false);
    EXPECT_EQ(full.ub_bytes, 2u * 4096u);
    EXPECT_EQ(reinterpret_cast<const float*>(gm.host(y))[9], 9.0f);
}

TEST(Launch, PreflightReportsUbOverflow) {
    ascendopt_twin::GmSpace gm(1 << 20);
    try {
        launch_staged_copy(gm, gm.add("y", 128), 131072, true);
        ADD_FAILURE() << "expected an error";
    } catch (const ascendopt_twin::TwinError& e) {
        EXPECT_EQ(e.kind, ascendopt_twin::ErrorKind::resource_exceeded);
        EXPECT_NE(std::string(e.what()).find("262144"), std::string::npos) << e.what();
    }
}

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
