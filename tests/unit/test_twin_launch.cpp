// Launch: blocks run as threads with their own GetBlockIdx; SyncAll is a real barrier; the kernel
// type a compiled kernel declares (KERNEL_TASK_TYPE notes) follows its preprocessor branches.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>

#include "kernel_operator.h"
#include "kernel_type_notes.h"
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

// Reads the device compiler's per-core variables block_idx and block_num as values.
extern "C" void block_variables_kernel(GM_ADDR out, GM_ADDR, GM_ADDR, GM_ADDR) {
    GlobalTensor<int32_t> o;
    o.SetGlobalBuffer(reinterpret_cast<int32_t*>(out), 2 * block_num);
    const uint32_t base = 2 * block_idx;
    o.SetValue(base, int32_t(block_idx * 10));
    int64_t n = block_num;
    o.SetValue(base + 1, int32_t(n));
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

namespace {
// Twenty GM arguments (published norm kernels take up to about 20): writes the sum of each
// argument's distance from the first into the last.
extern "C" void twenty_args_kernel(GM_ADDR a0, GM_ADDR a1, GM_ADDR a2, GM_ADDR a3, GM_ADDR a4, GM_ADDR a5, GM_ADDR a6,
                                   GM_ADDR a7, GM_ADDR a8, GM_ADDR a9, GM_ADDR a10, GM_ADDR a11, GM_ADDR a12, GM_ADDR a13,
                                   GM_ADDR a14, GM_ADDR a15, GM_ADDR a16, GM_ADDR a17, GM_ADDR a18, GM_ADDR out) {
    const GM_ADDR all[] = {a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18};
    int64_t sum = 0;
    for (auto* p : all) sum += p - a0;
    AscendC::GlobalTensor<int64_t> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(out), 1);
    g.SetValue(0, sum);
}
}  // namespace

TEST(Launch, KernelsTakeUpToThirtyTwoArguments) {
    ascendopt_twin::GmSpace gm(1 << 20);
    std::vector<uint8_t*> args;
    for (int i = 0; i < 20; ++i) args.push_back(gm.add("a" + std::to_string(i), 32));
    int64_t want = 0;
    for (int i = 0; i < 19; ++i) want += args[i] - args[0];
    ascendopt_twin::launch(ascendopt_twin::testing::test_soc(), reinterpret_cast<void*>(&twenty_args_kernel), args, 1, 0, gm);
    EXPECT_EQ(*reinterpret_cast<const int64_t*>(gm.host(args[19])), want);
    args.resize(33, args[0]);
    try {
        ascendopt_twin::launch(ascendopt_twin::testing::test_soc(), reinterpret_cast<void*>(&twenty_args_kernel), args, 1, 0, gm);
        ADD_FAILURE() << "expected an error";
    } catch (const ascendopt_twin::TwinError& e) {
        EXPECT_NE(std::string(e.what()).find("33 GM arguments are not supported (2..32)"), std::string::npos) << e.what();
    }
}

TEST(Launch, BlockIdxAndBlockNumVariablesArePerCore) {
    const auto* soc = &ascendopt_twin::testing::test_soc();
    ascendopt_twin::GmSpace gm(1 << 20);
    const uint32_t blocks = 8;
    uint8_t* out = gm.add("out", blocks * 8);
    ascendopt_twin::launch(*soc, reinterpret_cast<void*>(&block_variables_kernel), {out, gm.add("a", 0), gm.add("ws", 0), gm.add("tiling", 0)},
                           blocks, 0, gm);
    const auto* result = reinterpret_cast<const int32_t*>(gm.host(out));
    for (uint32_t b = 0; b < blocks; ++b) {
        ASSERT_EQ(result[2 * b], int32_t(b * 10)) << b;
        ASSERT_EQ(result[2 * b + 1], int32_t(blocks)) << b;
    }
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

// --- kernel types, mixed launches and cross-core flags ----------------------------------

namespace {

ascendopt_twin::LaunchResult launch_kind(void* kernel, ascendopt_twin::GmSpace& gm, const std::vector<uint8_t*>& args, uint32_t blocks,
                                         ascendopt_twin::KernelType kind) {
    ascendopt_twin::LaunchOptions options;
    options.kernel_type = kind;
    return ascendopt_twin::launch(ascendopt_twin::testing::test_soc(), kernel, args, blocks, 0, gm, options);
}

// Every core records who it is: AICs in slots 0..blocks-1, AIVs after them by GetBlockIdx.
extern "C" void whoami_kernel(GM_ADDR out, GM_ADDR, GM_ADDR, GM_ADDR) {
    GlobalTensor<int32_t> o;
    o.SetGlobalBuffer(reinterpret_cast<int32_t*>(out), 1024);
    const int64_t slot = ASCEND_IS_AIC ? GetBlockIdx() : GetBlockNum() + GetBlockIdx();
    o.SetValue(slot * 6 + 0, int32_t(g_coreType));
    o.SetValue(slot * 6 + 1, int32_t(GetBlockIdx()));
    o.SetValue(slot * 6 + 2, int32_t(GetBlockNum()));
    o.SetValue(slot * 6 + 3, int32_t(GetSubBlockIdx()));
    o.SetValue(slot * 6 + 4, int32_t(GetTaskRatio()));
    o.SetValue(slot * 6 + 5, int32_t(GetSubBlockNum()));
}

// Mode 2 both ways: each AIC writes its block's value and sets flag 3; its two AIVs wait for it,
// write value + 1 + sub-block, and set flag 5; the AIC waits for both and sums what they wrote.
extern "C" void handoff_kernel(GM_ADDR data, GM_ADDR out, GM_ADDR, GM_ADDR) {
    GlobalTensor<int32_t> d, o;
    d.SetGlobalBuffer(reinterpret_cast<int32_t*>(data), 1024);
    o.SetGlobalBuffer(reinterpret_cast<int32_t*>(out), 1024);
    const int64_t block = ASCEND_IS_AIC ? GetBlockIdx() : GetBlockIdx() / 2;
    if ASCEND_IS_AIC {
        d.SetValue(block * 4, int32_t(100 * (block + 1)));
        CrossCoreSetFlag<2, PIPE_FIX>(3);
        CrossCoreWaitFlag(5);
        o.SetValue(block, d.GetValue(block * 4 + 1) + d.GetValue(block * 4 + 2));
    }
    if ASCEND_IS_AIV {
        CrossCoreWaitFlag(3);
        d.SetValue(block * 4 + 1 + GetSubBlockIdx(), d.GetValue(block * 4) + 1 + int32_t(GetSubBlockIdx()));
        CrossCoreSetFlag<2, PIPE_MTE3>(5);
    }
}

// Mode 0 among all AIVs, mode 1 among the two AIVs of a block; `raw`: through the compiler's
// raw forms (ffts_cross_core_sync with the message 1 | mode << 4 | flag << 8, wait_flag_dev).
template <bool raw>
void aiv_flags(GM_ADDR data, GM_ADDR out) {
    GlobalTensor<int32_t> d, o;
    d.SetGlobalBuffer(reinterpret_cast<int32_t*>(data), 1024);
    o.SetGlobalBuffer(reinterpret_cast<int32_t*>(out), 1024);
    if ASCEND_IS_AIC return;
    auto set_and_wait = [](uint8_t mode, uint16_t flag) {
        if constexpr (raw) {
            ffts_cross_core_sync(PIPE_MTE3, 1 | uint64_t(mode) << 4 | uint64_t(flag) << 8);
            wait_flag_dev(flag);
        } else {
            if (mode == 0) CrossCoreSetFlag<0, PIPE_MTE3>(flag);
            else CrossCoreSetFlag<1, PIPE_MTE3>(flag);
            CrossCoreWaitFlag(flag);
        }
    };
    const int64_t me = GetBlockIdx();
    d.SetValue(me, int32_t(me + 1));
    set_and_wait(1, 2);  // both AIVs of my block have written
    o.SetValue(me, d.GetValue(me ^ 1));
    set_and_wait(0, 4);  // every AIV has written
    int32_t sum = 0;
    for (int64_t i = 0; i < GetBlockNum() * 2; ++i) sum += d.GetValue(i);
    o.SetValue(512 + me, sum);
}
extern "C" void aiv_flags_kernel(GM_ADDR data, GM_ADDR out, GM_ADDR, GM_ADDR) { aiv_flags<false>(data, out); }
extern "C" void aiv_raw_flags_kernel(GM_ADDR data, GM_ADDR out, GM_ADDR, GM_ADDR) { aiv_flags<true>(data, out); }

// Only AIV sub-block 0 sets the flag its AIC waits for in mode 2: the AIC waits for a flag that
// can never be raised.
extern "C" void never_set_kernel(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR) {
    if (ASCEND_IS_AIV && GetSubBlockIdx() == 0) CrossCoreSetFlag<2, PIPE_MTE3>(7);
    if ASCEND_IS_AIC CrossCoreWaitFlag(7);
}

// A cube API on a vector core in a mixed launch.
extern "C" void cube_on_vector_kernel(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR) {
    TPipe pipe;
    TQue<TPosition::A1, 1> q;
    pipe.InitBuffer(q, 1, 512);
    LocalTensor<half> t = q.AllocTensor<half>();
    if ASCEND_IS_AIV InitConstValue(t, InitConstValueParams<half>(1, 1, 0, half(0.0f)));
}

}  // namespace

TEST(Launch, MixedOneToTwoLaunchGivesEachCoreItsIndices) {
    ascendopt_twin::GmSpace gm(1 << 20);
    uint8_t* out = gm.add("out", 4096);
    std::memset(gm.host(out), 0xFF, 4096);
    const uint32_t blocks = 3;
    launch_kind(reinterpret_cast<void*>(&whoami_kernel), gm, {out, gm.add("b", 32), gm.add("ws", 0), gm.add("t", 0)}, blocks,
                ascendopt_twin::KernelType::mix_aic_1_2);
    const auto* v = reinterpret_cast<const int32_t*>(gm.host(out));
    for (uint32_t b = 0; b < blocks; ++b) {  // AICs: index b of 3, one per block
        const int32_t* s = v + b * 6;
        EXPECT_EQ(s[0], AscendC::AIC);
        EXPECT_EQ(s[1], int32_t(b));
        EXPECT_EQ(s[2], 3);
        EXPECT_EQ(s[3], 0);
        EXPECT_EQ(s[4], 1);
        EXPECT_EQ(s[5], 1);
    }
    for (uint32_t i = 0; i < 2 * blocks; ++i) {  // AIVs: index 0..5, sub-block i % 2, ratio 2
        const int32_t* s = v + (blocks + i) * 6;
        EXPECT_EQ(s[0], AscendC::AIV) << i;
        EXPECT_EQ(s[1], int32_t(i));
        EXPECT_EQ(s[2], 3);
        EXPECT_EQ(s[3], int32_t(i % 2));
        EXPECT_EQ(s[4], 2);
        EXPECT_EQ(s[5], 2);
    }
    // AIC-only: three AICs and no AIV.
    std::memset(gm.host(out), 0xFF, 4096);
    const auto r = launch_kind(reinterpret_cast<void*>(&whoami_kernel), gm, {out, gm.add("b2", 32), gm.add("ws2", 0), gm.add("t2", 0)},
                               blocks, ascendopt_twin::KernelType::aic);
    EXPECT_EQ(v[2 * 6], AscendC::AIC);
    EXPECT_EQ(v[3 * 6], -1);
    EXPECT_EQ(r.blocks.size(), 3u);
}

TEST(Launch, CrossCoreFlagsHandDataBetweenAicAndItsAivs) {
    ascendopt_twin::GmSpace gm(1 << 20);
    uint8_t* data = gm.add("data", 4096);
    uint8_t* out = gm.add("out", 4096);
    const uint32_t blocks = 30;  // more than the 24 AI Cores: the last blocks run in a second wave
    const auto r = launch_kind(reinterpret_cast<void*>(&handoff_kernel), gm, {data, out, gm.add("ws", 0), gm.add("t", 0)}, blocks,
                               ascendopt_twin::KernelType::mix_aic_1_2);
    const auto* o = reinterpret_cast<const int32_t*>(gm.host(out));
    for (uint32_t b = 0; b < blocks; ++b) EXPECT_EQ(o[b], 2 * 100 * int32_t(b + 1) + 3) << b;
    EXPECT_EQ(r.counts.by_kind.at("CrossCoreSetFlag"), 3u * blocks);
    // The AIVs waited for their AIC's set, which reaches them cross_core_flag_cycles later; the
    // blocks beyond the 24 AI Cores start when the first wave's block on their core ends.
    const auto& soc = ascendopt_twin::testing::test_soc();
    EXPECT_EQ(r.blocks.at(1).kind, ascendopt_twin::CoreKind::aiv);
    EXPECT_GE(r.blocks.at(1).end_cycles, soc.timing.cross_core_flag_cycles);
    const auto& first = r.blocks.at(0);    // AIC of block 0
    const auto& late = r.blocks.at(3 * 24);  // AIC of block 24, on AI Core 0 again
    EXPECT_EQ(late.block, 24);
    EXPECT_DOUBLE_EQ(late.start_cycles, std::max({first.end_cycles, r.blocks.at(1).end_cycles, r.blocks.at(2).end_cycles}));
}

TEST(Launch, CrossCoreModesZeroAndOneAmongAivs) {
    for (auto* kernel : {&aiv_flags_kernel, &aiv_raw_flags_kernel}) {
        ascendopt_twin::GmSpace gm(1 << 20);
        uint8_t* data = gm.add("data", 4096);
        uint8_t* out = gm.add("out", 4096);
        const uint32_t blocks = 4;
        launch_kind(reinterpret_cast<void*>(kernel), gm, {data, out, gm.add("ws", 0), gm.add("t", 0)}, blocks,
                    ascendopt_twin::KernelType::mix_aic_1_2);
        const auto* o = reinterpret_cast<const int32_t*>(gm.host(out));
        for (int32_t i = 0; i < int32_t(2 * blocks); ++i) {
            EXPECT_EQ(o[i], (i ^ 1) + 1) << i;      // the other AIV of my block had written
            EXPECT_EQ(o[512 + i], 8 * 9 / 2) << i;  // every AIV had written
        }
    }
}

TEST(Launch, AWaitNoCoreCanSatisfyIsAnError) {
    ascendopt_twin::GmSpace gm(1 << 20);
    try {
        launch_kind(reinterpret_cast<void*>(&never_set_kernel), gm, {gm.add("a", 32), gm.add("b", 32), gm.add("ws", 0), gm.add("t", 0)}, 2,
                    ascendopt_twin::KernelType::mix_aic_1_2);
        ADD_FAILURE() << "expected an error";
    } catch (const ascendopt_twin::TwinError& e) {
        EXPECT_EQ(e.api, "CrossCoreWaitFlag");
        EXPECT_NE(std::string(e.what()).find("waits for flag 7, but no core can set it any more"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("has returned"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("this hangs an NPU"), std::string::npos) << e.what();
    }
    // Mode 2 needs an AIC and its AIVs: in an AIV-only launch it names the mode.
    try {
        launch_kind(reinterpret_cast<void*>(&never_set_kernel), gm, {gm.add("c", 32), gm.add("d", 32), gm.add("ws2", 0), gm.add("t2", 0)}, 2,
                    ascendopt_twin::KernelType::aiv);
        ADD_FAILURE() << "expected an error";
    } catch (const ascendopt_twin::TwinError& e) {
        EXPECT_NE(std::string(e.what()).find("mode 2 synchronizes the AIVs of a block with its AIC"), std::string::npos) << e.what();
    }
}

TEST(Launch, ACubeApiOnAVectorCoreNamesBoth) {
    ascendopt_twin::GmSpace gm(1 << 20);
    try {
        launch_kind(reinterpret_cast<void*>(&cube_on_vector_kernel), gm, {gm.add("a", 32), gm.add("b", 32), gm.add("ws", 0), gm.add("t", 0)},
                    1, ascendopt_twin::KernelType::mix_aic_1_1);
        ADD_FAILURE() << "expected an error";
    } catch (const ascendopt_twin::TwinError& e) {
        EXPECT_EQ(e.api, "InitConstValue");
        EXPECT_NE(std::string(e.what()).find("a cube API on an AIV core (block 0)"), std::string::npos) << e.what();
    }
}

// --- the kernel type a compiled kernel declares ------------------------------------------------

namespace {

// As a published kernel writes them: a per-dtype `#if` picks the declarations the build keeps.
#define ASCENDOPT_TEST_DTYPE 27  // "bfloat16": the second branch is the one compiled
extern "C" void declares_kernel_types_kernel() {
#if ASCENDOPT_TEST_DTYPE == 1
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    KERNEL_TASK_TYPE(100000, KERNEL_TYPE_MIX_AIC_1_0);
#else
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
    KERNEL_TASK_TYPE(10UL, KERNEL_TYPE_MIX_AIC_1_2);
#endif
}

}  // namespace

// Only the declarations the preprocessor kept count: the other branch's default and its key
// 100000 do not (a reading of the source text would see both branches).
TEST(KernelTypeNotes, OnlyTheCompiledBranchCounts) {
    declares_kernel_types_kernel();
    EXPECT_EQ(ascendopt_twin::compiled_kernel_type(10), "mix_aic_1_2");
    EXPECT_EQ(ascendopt_twin::compiled_kernel_type(0), "mix_aic_1_1");
    EXPECT_EQ(ascendopt_twin::compiled_kernel_type(100000), "mix_aic_1_1");
}
