// Timing variants (LaunchOptions::timing_variants): one functional run timed under several SoC
// descriptions gives each the latency a launch of its own under it gives, SyncAll included, and
// a core that takes a time from another core's main timeline (cross-core flags) drops them
// rather than report a figure it cannot follow.
#include <gtest/gtest.h>

#include "kernel_operator.h"
#include "test_soc.h"
#include "twin_rt.h"

using namespace AscendC;

namespace {

constexpr uint32_t k_tile = 64;
constexpr uint32_t k_tiles = 6;

// Per block: k_tiles tiles of x through UB, doubled on the vector unit, out to y; double
// buffered, so the pipes overlap and the timing depends on every DMA and vector parameter.
extern "C" void doubled_tiles_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR, GM_ADDR) {
    TPipe pipe;
    TQue<TPosition::VECIN, 2> in;
    TQue<TPosition::VECOUT, 2> out;
    pipe.InitBuffer(in, 2, k_tile * sizeof(float));
    pipe.InitBuffer(out, 2, k_tile * sizeof(float));
    GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer(reinterpret_cast<float*>(x) + GetBlockIdx() * k_tile * k_tiles, k_tile * k_tiles);
    gy.SetGlobalBuffer(reinterpret_cast<float*>(y) + GetBlockIdx() * k_tile * k_tiles, k_tile * k_tiles);
    for (uint32_t t = 0; t < k_tiles; ++t) {
        LocalTensor<float> a = in.AllocTensor<float>();
        DataCopy(a, gx[t * k_tile], k_tile);
        in.EnQue(a);
        a = in.DeQue<float>();
        LocalTensor<float> b = out.AllocTensor<float>();
        Muls(b, a, 2.0f, k_tile);
        in.FreeTensor(a);
        out.EnQue(b);
        b = out.DeQue<float>();
        DataCopy(gy[t * k_tile], b, k_tile);
        out.FreeTensor(b);
    }
}

// Per block: one tile doubled, then SyncAll, then a second tile: every core's timelines meet
// the other cores' at the barrier, each timing model at its own time.
extern "C" void doubled_synced_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR, GM_ADDR) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, k_tile * sizeof(float));
    LocalTensor<float> a = buf.Get<float>();
    GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer(reinterpret_cast<float*>(x) + GetBlockIdx() * k_tile * k_tiles, k_tile * k_tiles);
    gy.SetGlobalBuffer(reinterpret_cast<float*>(y) + GetBlockIdx() * k_tile * k_tiles, k_tile * k_tiles);
    for (uint32_t t = 0; t < 2; ++t) {
        // Block 0 does three times the work before the barrier, so the others wait for it.
        for (uint32_t r = 0; r < (GetBlockIdx() == 0 && t == 0 ? 3u : 1u); ++r) {
            DataCopy(a, gx[t * k_tile], k_tile);
            PipeBarrier<PIPE_ALL>();
            Muls(a, a, 2.0f, k_tile);
            PipeBarrier<PIPE_ALL>();
            DataCopy(gy[t * k_tile], a, k_tile);
            PipeBarrier<PIPE_ALL>();
        }
        if (t == 0) SyncAll();
    }
}

// The AIVs of each block raise a flag their AIC waits for: a time that crosses cores.
extern "C" void flag_to_aic_kernel(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR) {
    if ASCEND_IS_AIV CrossCoreSetFlag<2, PIPE_MTE3>(7);
    if ASCEND_IS_AIC CrossCoreWaitFlag(7);
}

ascendopt_twin::LaunchResult run_doubled(const ascendopt_twin::SocSpec& soc, const std::vector<ascendopt_twin::TimingVariant>& variants,
                                         uint32_t blocks, void* kernel = reinterpret_cast<void*>(&doubled_tiles_kernel)) {
    ascendopt_twin::GmSpace gm(8 << 20);
    const uint32_t n = blocks * k_tile * k_tiles;
    uint8_t* x = gm.add("x", n * 4);
    uint8_t* y = gm.add("y", n * 4);
    for (uint32_t i = 0; i < n; ++i) reinterpret_cast<float*>(gm.host(x))[i] = float(i);
    ascendopt_twin::LaunchOptions options;
    options.timing_variants = variants;
    auto r = ascendopt_twin::launch(soc, kernel, {x, y, gm.add("ws", 0), gm.add("tiling", 0)}, blocks, 0, gm, options);
    EXPECT_EQ(reinterpret_cast<const float*>(gm.host(y))[k_tile + 1], 2.0f * float(k_tile + 1));
    return r;
}

// The test SoC with every timing parameter a vector kernel reads moved.
ascendopt_twin::SocSpec moved_soc() {
    ascendopt_twin::SocSpec s = ascendopt_twin::testing::test_soc();
    auto& t = s.timing;
    t.mte_latency_cycles *= 1.5;
    t.mte_setup_cycles *= 0.5;
    t.mte_bytes_per_cycle *= 0.5;
    t.gm_bytes_per_cycle *= 0.7;
    t.vector_issue_cycles *= 2;
    t.scalar_cycles_per_basic_block *= 3;
    t.launch_overhead_us += 4;
    t.l2_resident_fraction = 0;
    return s;
}

TEST(TimingVariants, EachVariantGetsTheLatencyOfALaunchOfItsOwn) {
    const auto& nominal = ascendopt_twin::testing::test_soc();
    const ascendopt_twin::SocSpec moved = moved_soc();
    // 60 blocks on the test SoC's vector cores: a second wave for some, as in large launches.
    for (uint32_t blocks : {1u, 60u}) {
        const auto together = run_doubled(nominal, {{&moved, {}}, {&nominal, {}}}, blocks);
        const auto alone = run_doubled(moved, {}, blocks);
        ASSERT_EQ(together.variant_latency_us.size(), 2u);
        EXPECT_DOUBLE_EQ(together.variant_latency_us[0], alone.latency_us) << blocks << " blocks";
        EXPECT_DOUBLE_EQ(together.variant_latency_us[1], together.latency_us) << blocks << " blocks";
        EXPECT_GT(alone.latency_us, together.latency_us + 4.0) << "the moved SoC is slower in every parameter";
        EXPECT_TRUE(alone.variant_latency_us.empty());
    }
}

TEST(TimingVariants, SyncAllMeetsEachTimingModelAtItsOwnTime) {
    const auto& nominal = ascendopt_twin::testing::test_soc();
    const ascendopt_twin::SocSpec moved = moved_soc();
    const auto kernel = reinterpret_cast<void*>(&doubled_synced_kernel);
    const auto together = run_doubled(nominal, {{&moved, {}}}, 8, kernel);
    const auto alone = run_doubled(moved, {}, 8, kernel);
    ASSERT_EQ(together.variant_latency_us.size(), 1u);
    EXPECT_DOUBLE_EQ(together.variant_latency_us[0], alone.latency_us);
    EXPECT_GT(alone.latency_us, together.latency_us);
}

TEST(TimingVariants, ACoreThatTakesATimeFromAnotherDropsThem) {
    const auto& nominal = ascendopt_twin::testing::test_soc();
    const ascendopt_twin::SocSpec moved = moved_soc();
    ascendopt_twin::GmSpace gm(1 << 20);
    ascendopt_twin::LaunchOptions options;
    options.timing_variants = {{&moved, {}}};
    options.kernel_type = ascendopt_twin::KernelType::mix_aic_1_2;
    const auto r = ascendopt_twin::launch(nominal, reinterpret_cast<void*>(&flag_to_aic_kernel),
                                          {gm.add("a", 0), gm.add("b", 0), gm.add("ws", 0), gm.add("tiling", 0)}, 2, 0, gm, options);
    EXPECT_GT(r.latency_us, 0);
    EXPECT_TRUE(r.variant_latency_us.empty()) << "the AIC waits until a time its AIVs computed under the main SoC only";
}

}  // namespace
