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

// Allocates `tile` bytes of UB twice (double buffering), then copies its share of x to y through
// the first buffer, or the second when the tiling's second word is set.
extern "C" void staged_copy_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR, GM_ADDR tiling) {
    uint32_t params[2] = {};
    ascendopt_twin::load_tiling(params, sizeof params, tiling);
    TPipe pipe;
    TQue<TPosition::VECIN, 2> q;
    pipe.InitBuffer(q, 2, params[0]);
    GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer(reinterpret_cast<float*>(x) + GetBlockIdx() * 8, 8);
    gy.SetGlobalBuffer(reinterpret_cast<float*>(y) + GetBlockIdx() * 8, 8);
    LocalTensor<float> t = q.AllocTensor<float>();
    if (params[1] != 0) {
        LocalTensor<float> second = q.AllocTensor<float>();
        q.FreeTensor(t);
        t = second;
    }
    DataCopy(t, gx, 8);
    q.EnQue(t);
    t = q.DeQue<float>();
    DataCopy(gy, t, 8);
    q.FreeTensor(t);
}

ascendopt_twin::LaunchResult launch_staged_copy(ascendopt_twin::GmSpace& gm, uint8_t* y, uint32_t tile, bool preflight,
                                                bool second_buffer = false) {
    uint8_t* x = gm.add("x", 4 * 8 * 4);
    for (int i = 0; i < 32; ++i) reinterpret_cast<float*>(gm.host(x))[i] = float(i);
    const uint32_t params[2] = {tile, second_buffer ? 1u : 0u};
    uint8_t* tiling = gm.add("tiling", sizeof params);
    std::memcpy(gm.host(tiling), params, sizeof params);
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

// Buffers past the UB's end are no error until used (as on the device): a run that uses only
// the first buffer succeeds, and one that gives the second buffer data fails. The preflight,
// which stops before any data access, rejects the launch on the allocation alone.
TEST(Launch, UbPastItsEndFailsWhenUsedAndThePreflightReportsIt) {
    ascendopt_twin::GmSpace gm(1 << 20);
    uint8_t* y = gm.add("y", 128);
    // A preflight rejects the launch: nearly every kernel touches each buffer it sets up.
    try {
        launch_staged_copy(gm, y, 200000, true);
        ADD_FAILURE() << "expected the preflight to reject the launch";
    } catch (const ascendopt_twin::TwinError& e) {
        EXPECT_EQ(e.kind, ascendopt_twin::ErrorKind::resource_exceeded);
        EXPECT_NE(std::string(e.what()).find("hand out 400000 bytes of UB"), std::string::npos) << e.what();
    }
    EXPECT_EQ(launch_staged_copy(gm, y, 200000, false).ub_bytes, 400000u);  // only buffer 1 is used
    try {
        launch_staged_copy(gm, y, 200000, false, true);
        ADD_FAILURE() << "expected an error";
    } catch (const ascendopt_twin::TwinError& e) {
        EXPECT_EQ(e.kind, ascendopt_twin::ErrorKind::resource_exceeded);
        EXPECT_NE(std::string(e.what()).find("196608-byte UB"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("buffer 2 of 2"), std::string::npos) << e.what();
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
