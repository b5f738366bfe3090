// Properties of the timing model (issue: "each a test that can fail"). Kernels are written
// here and launched in-process on the 910B2 description from share/soc.
#include <gtest/gtest.h>

#include <cmath>

#include "kernel_operator.h"
#include "test_soc.h"
#include "twin_rt.h"

using namespace AscendC;

namespace {

struct StreamParams {
    uint32_t per_core;      // floats per core
    uint32_t tile;          // floats per tile
    uint32_t buffers;       // 1 or 2 per queue
    uint32_t barrier;       // PipeBarrier<PIPE_ALL> after every tile
    uint32_t op;            // 0 add, 1 exp, 2 scalar element loop
    uint32_t separate_tail; // process the last partial tile after the loop, fenced by barriers
};

// z = x + y (or exp(x), or x + y one element at a time through GetValue/SetValue).
class Stream {
public:
    Stream(GM_ADDR x, GM_ADDR y, GM_ADDR z, const StreamParams& p) : m_p(p) {
        const uint64_t start = uint64_t(GetBlockIdx()) * p.per_core;
        m_x.SetGlobalBuffer(reinterpret_cast<float*>(x) + start, p.per_core);
        m_y.SetGlobalBuffer(reinterpret_cast<float*>(y) + start, p.per_core);
        m_z.SetGlobalBuffer(reinterpret_cast<float*>(z) + start, p.per_core);
        m_pipe.InitBuffer(m_inx, uint8_t(p.buffers), p.tile * 4);
        m_pipe.InitBuffer(m_iny, uint8_t(p.buffers), p.tile * 4);
        m_pipe.InitBuffer(m_out, uint8_t(p.buffers), p.tile * 4);
        if (p.separate_tail) m_pipe.InitBuffer(m_tail, 3 * p.tile * 4);
    }
    void run() {
        const uint32_t full = m_p.per_core / m_p.tile;
        const uint32_t rest = m_p.per_core % m_p.tile;
        for (uint32_t t = 0; t < full; ++t) step(t * m_p.tile, m_p.tile);
        if (rest == 0) return;
        if (!m_p.separate_tail) return step(full * m_p.tile, rest);
        // The separate-tail pattern: own buffers, fenced so it cannot overlap the main loop.
        PipeBarrier<PIPE_ALL>();
        LocalTensor<float> buf = m_tail.Get<float>();
        LocalTensor<float> a = buf, b = buf[m_p.tile], c = buf[2 * m_p.tile];
        DataCopy(a, m_x[full * m_p.tile], rest);
        DataCopy(b, m_y[full * m_p.tile], rest);
        PipeBarrier<PIPE_ALL>();
        Add(c, a, b, int32_t(rest));
        PipeBarrier<PIPE_ALL>();
        DataCopy(m_z[full * m_p.tile], c, rest);
        PipeBarrier<PIPE_ALL>();
    }

private:
    void step(uint32_t offset, uint32_t n) {
        LocalTensor<float> x = m_inx.AllocTensor<float>();
        LocalTensor<float> y = m_iny.AllocTensor<float>();
        DataCopy(x, m_x[offset], n);
        DataCopy(y, m_y[offset], n);
        m_inx.EnQue(x);
        m_iny.EnQue(y);
        x = m_inx.DeQue<float>();
        y = m_iny.DeQue<float>();
        LocalTensor<float> z = m_out.AllocTensor<float>();
        if (m_p.op == 0) Add(z, x, y, int32_t(n));
        if (m_p.op == 1) Exp(z, x, int32_t(n));
        if (m_p.op == 2)
            for (uint32_t i = 0; i < n; ++i) z.SetValue(i, x.GetValue(i) + y.GetValue(i));
        m_out.EnQue(z);
        m_inx.FreeTensor(x);
        m_iny.FreeTensor(y);
        z = m_out.DeQue<float>();
        DataCopy(m_z[offset], z, n);
        m_out.FreeTensor(z);
        if (m_p.barrier) PipeBarrier<PIPE_ALL>();
    }

    StreamParams m_p;
    TPipe m_pipe;
    TQue<QuePosition::VECIN, 2> m_inx, m_iny;
    TQue<QuePosition::VECOUT, 2> m_out;
    TBuf<QuePosition::VECCALC> m_tail;
    GlobalTensor<float> m_x, m_y, m_z;
};

extern "C" void stream_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR, GM_ADDR tiling) {
    StreamParams p;
    ::ascendopt_twin::load_tiling(&p, sizeof p, tiling);
    Stream s(x, y, z, p);
    s.run();
}

struct Launched {
    double latency_us;
    ascendopt_twin::BlockTiming block0;
};

// The 910B2 with a cold L2: these tests are about the pipes and HBM, every GM access from HBM.
const ascendopt_twin::SocSpec& hbm_soc() {
    static const ascendopt_twin::SocSpec s = [] {
        ascendopt_twin::SocSpec c = ascendopt_twin::testing::test_soc();
        c.timing.l2_resident_fraction = 0;
        return c;
    }();
    return s;
}

Launched run(StreamParams p, uint32_t blocks) {
    const auto& soc = hbm_soc();
    const uint64_t bytes = uint64_t(p.per_core) * blocks * 4;
    ascendopt_twin::GmSpace gm(3 * bytes + (1 << 20));
    std::vector<uint8_t*> args = {gm.add("x", bytes), gm.add("y", bytes), gm.add("z", bytes), gm.add("ws", 0),
                                  gm.add("tiling", sizeof p)};
    std::memcpy(gm.host(args[4]), &p, sizeof p);
    auto r = ascendopt_twin::launch(soc, reinterpret_cast<void*>(&stream_kernel), args, blocks, 0, gm);
    return {r.latency_us, r.blocks.at(0)};
}

double cycles_to_us(double c) { return c / (ascendopt_twin::testing::test_soc().timing.clock_ghz * 1000.0); }
double overhead() { return ascendopt_twin::testing::test_soc().timing.launch_overhead_us; }
double busy(const ascendopt_twin::BlockTiming& b, ascendopt_twin::PipeId p) { return b.pipes[size_t(p)].busy; }

constexpr uint32_t k_cores = 48;
constexpr uint32_t k_large = 1u << 16;  // floats per core: 256 KiB per input per core

}  // namespace

TEST(TimingModel, DoubleBufferingBeatsSingleAndApproachesTheBound) {
    const Launched one = run({k_large, 4096, 1, 0, 0, 0}, k_cores);
    const Launched two = run({k_large, 4096, 2, 0, 0, 0}, k_cores);
    // Kernel time (launch overhead excluded): the property is about the kernel. The core's reads
    // and writes share one port, so the overlap hides the latency, not the second transfer.
    EXPECT_GE(one.block0.end_cycles / two.block0.end_cycles, 1.25) << one.block0.end_cycles << " vs " << two.block0.end_cycles;
    using ascendopt_twin::PipeId;
    const double bound = std::max({busy(two.block0, PipeId::MTE2), busy(two.block0, PipeId::V), busy(two.block0, PipeId::MTE3)});
    EXPECT_LE(two.block0.end_cycles, 1.15 * bound) << "end " << two.block0.end_cycles << " bound " << bound;
}

TEST(TimingModel, LatencyGrowsLinearlyWithSize) {
    const double a = run({k_large, 4096, 2, 0, 0, 0}, k_cores).latency_us - overhead();
    const double b = run({2 * k_large, 4096, 2, 0, 0, 0}, k_cores).latency_us - overhead();
    const double c = run({4 * k_large, 4096, 2, 0, 0, 0}, k_cores).latency_us - overhead();
    EXPECT_NEAR(b / a, 2.0, 0.2);
    EXPECT_NEAR(c / b, 2.0, 0.2);
}

TEST(TimingModel, MoreCoresHelpUntilGmBandwidthSaturates) {
    // Tiles big enough that double buffering hides the DMA latency at every core count.
    const uint32_t total = 48u * 65536;  // floats, split over the cores
    std::map<uint32_t, double> t;
    for (uint32_t cores : {1u, 2u, 4u, 8u, 16u, 24u, 48u}) t[cores] = run({total / cores, 8192, 2, 0, 0, 0}, cores).latency_us;
    EXPECT_GT(t[1] / t[2], 1.8);
    EXPECT_GT(t[2] / t[4], 1.8);
    EXPECT_GT(t[4] / t[8], 1.5);
    EXPECT_LT(t[24] / t[48], 1.15) << "past saturation more cores should not help much";
    EXPECT_GT(t[24] / t[48], 0.85);
}

TEST(TimingModel, PipeBarrierPerTileRemovesOverlap) {
    const Launched overlap = run({k_large, 4096, 2, 0, 0, 0}, k_cores);
    const Launched fenced = run({k_large, 4096, 2, 1, 0, 0}, k_cores);
    EXPECT_GE(fenced.latency_us / overlap.latency_us, 1.3);
    using ascendopt_twin::PipeId;
    const double sum = busy(fenced.block0, PipeId::MTE2) + busy(fenced.block0, PipeId::V) + busy(fenced.block0, PipeId::MTE3);
    EXPECT_GE(fenced.block0.end_cycles, 0.95 * sum) << "with a full barrier per tile the pipes run one after another";
}

TEST(TimingModel, ExpCostsMoreVectorTimeThanAdd) {
    using ascendopt_twin::PipeId;
    const Launched add = run({k_large, 4096, 2, 0, 0, 0}, k_cores);
    const Launched exp = run({k_large, 4096, 2, 0, 1, 0}, k_cores);
    EXPECT_GT(busy(exp.block0, PipeId::V), 2.0 * busy(add.block0, PipeId::V));
}

TEST(TimingModel, ScalarElementLoopIsFarSlowerThanTheVectorInstruction) {
    const Launched vec = run({8192, 4096, 2, 0, 0, 0}, k_cores);
    const Launched scalar = run({8192, 4096, 2, 0, 2, 0}, k_cores);
    EXPECT_GT(scalar.latency_us / vec.latency_us, 10.0) << scalar.latency_us << " vs " << vec.latency_us;
}

TEST(TimingModel, MergingTheTailIntoTheLoopPaysWhenTilesAreFew) {
    const double few_sep = run({2 * 4096 + 1024, 4096, 2, 0, 0, 1}, k_cores).latency_us - overhead();
    const double few_merged = run({2 * 4096 + 1024, 4096, 2, 0, 0, 0}, k_cores).latency_us - overhead();
    const double many_sep = run({64 * 4096 + 1024, 4096, 2, 0, 0, 1}, k_cores).latency_us - overhead();
    const double many_merged = run({64 * 4096 + 1024, 4096, 2, 0, 0, 0}, k_cores).latency_us - overhead();
    EXPECT_GT(few_sep / few_merged, 1.1);
    EXPECT_GT(few_sep / few_merged, many_sep / many_merged) << "the gain shrinks as tiles grow in number";
}

TEST(TimingModel, TinyTilesOnManyCoresAreDmaLatencyBound) {
    using ascendopt_twin::PipeId;
    const Launched tiny = run({512, 8, 2, 0, 0, 0}, k_cores);
    const auto& mte2 = tiny.block0.pipes[size_t(PipeId::MTE2)];
    EXPECT_GT(mte2.startup / mte2.busy, 0.8) << "start-up latency dominates 32-byte copies";
    const Launched big = run({512, 512, 2, 0, 0, 0}, k_cores);
    EXPECT_GT(tiny.block0.end_cycles / big.block0.end_cycles, 3.0) << "same bytes, 64 times the copies";
}

TEST(TimingModel, DeterministicWhateverTheThreadScheduling) {
    const Launched a = run({k_large, 4096, 2, 0, 1, 1}, k_cores);
    for (int i = 0; i < 3; ++i) {
        const Launched b = run({k_large, 4096, 2, 0, 1, 1}, k_cores);
        ASSERT_EQ(a.latency_us, b.latency_us);
        ASSERT_EQ(a.block0.end_cycles, b.block0.end_cycles);
    }
    EXPECT_GT(cycles_to_us(a.block0.end_cycles), 0);
}

// --- cube cores --------------------------------------------------------------------------

namespace {

struct CubeLoopParams {
    uint32_t buffers;  // buffers of the L0A / L0B queues: 1 or 2
    uint32_t iters;
};

// An AIC loop: L1 -> L0A / L0B (LoadData, MTE1) then Mmad (M) accumulating into one L0C tile,
// `iters` times, the L0 queues single or double buffered; the result goes out with Fixpipe.
template <int Buffers>
void cube_loop(GM_ADDR c, uint32_t iters) {
    TPipe pipe;
    TQue<TPosition::A1, 1> a1;
    TQue<TPosition::A2, Buffers> a2;
    TQue<TPosition::B2, Buffers> b2;
    TQue<TPosition::CO1, 1> co1;
    constexpr uint32_t tile = 64 * 64;  // 64 x 64 half: 16 fractals
    pipe.InitBuffer(a1, 1, 2 * tile * 2);
    pipe.InitBuffer(a2, Buffers, tile * 2);
    pipe.InitBuffer(b2, Buffers, tile * 2);
    pipe.InitBuffer(co1, 1, 64 * 64 * 4);
    LocalTensor<half> l1 = a1.AllocTensor<half>();
    LocalTensor<float> acc = co1.AllocTensor<float>();
    for (uint32_t i = 0; i < iters; ++i) {
        LocalTensor<half> a = a2.template AllocTensor<half>();
        LocalTensor<half> b = b2.template AllocTensor<half>();
        LoadData(a, l1, LoadData2DParams(0, 16, 1, 0, 0, false, 0));
        LoadData(b, l1[tile], LoadData2DParams(0, 16, 1, 0, 0, false, 0));
        a2.EnQue(a);
        b2.EnQue(b);
        a = a2.template DeQue<half>();
        b = b2.template DeQue<half>();
        Mmad(acc, a, b, MmadParams(64, 64, 64, 0, false, i == 0));
        a2.FreeTensor(a);
        b2.FreeTensor(b);
    }
    co1.EnQue(acc);
    acc = co1.DeQue<float>();
    GlobalTensor<float> out;
    out.SetGlobalBuffer(reinterpret_cast<float*>(c), 64 * 64);
    FixpipeParamsV220 f(64, 64, 64, 64, false);
    Fixpipe(out, acc, f);
    co1.FreeTensor(acc);
    a1.FreeTensor(l1);
}

extern "C" void cube_loop_kernel(GM_ADDR c, GM_ADDR, GM_ADDR, GM_ADDR tiling) {
    CubeLoopParams p;
    ::ascendopt_twin::load_tiling(&p, sizeof p, tiling);
    if (p.buffers == 2) cube_loop<2>(c, p.iters);
    else cube_loop<1>(c, p.iters);
}

ascendopt_twin::LaunchResult run_cube_loop(uint32_t buffers, uint32_t iters) {
    const auto& soc = ascendopt_twin::testing::test_soc();
    ascendopt_twin::GmSpace gm(1 << 22);
    CubeLoopParams p{buffers, iters};
    std::vector<uint8_t*> args = {gm.add("c", 64 * 64 * 4), gm.add("unused", 32), gm.add("ws", 0), gm.add("tiling", sizeof p)};
    std::memcpy(gm.host(args[3]), &p, sizeof p);
    ascendopt_twin::LaunchOptions options;
    options.kernel_type = ascendopt_twin::KernelType::aic;
    return ascendopt_twin::launch(soc, reinterpret_cast<void*>(&cube_loop_kernel), args, 1, 0, gm, options);
}

}  // namespace

// The rules of docs/timing-model.md for the cube: an Mmad takes ceil(m/16) * ceil(n/16) * (K in
// 32-byte blocks) steps plus its issue cost; a LoadData into L0A moves 256 bytes a cycle, into
// L0B 128, plus its set-up.
TEST(TimingModel, CubeDurationsFollowFractalCountsAndMte1Rates) {
    const auto r = run_cube_loop(1, 1);
    const auto& soc = ascendopt_twin::testing::test_soc();
    const auto& c = soc.timing.cube;
    const auto& b = r.blocks.at(0);
    EXPECT_EQ(b.kind, ascendopt_twin::CoreKind::aic);
    EXPECT_DOUBLE_EQ(busy(b, ascendopt_twin::PipeId::M), c.m_issue_cycles + 4 * 4 * 4 * c.m_cycles_per_fractal);
    EXPECT_DOUBLE_EQ(busy(b, ascendopt_twin::PipeId::MTE1),
                     2 * c.mte1_setup_cycles + 8192 / c.mte1_l0a_bytes_per_cycle + 8192 / c.mte1_l0b_bytes_per_cycle);
    EXPECT_EQ(b.pipes[size_t(ascendopt_twin::PipeId::FIX)].count, 1u);
    EXPECT_EQ(b.pipes[size_t(ascendopt_twin::PipeId::V)].count, 0u);
}

// With one L0A/L0B buffer each LoadData waits for the Mmad that read the buffer before it; with
// two, the loads of step i+1 overlap the Mmad of step i (the queues gate as UB queues do), so the
// loop is bounded by the busier of MTE1 and M instead of their sum.
TEST(TimingModel, DoubleBufferedL0OverlapsMte1AndM) {
    const uint32_t iters = 64;
    const auto single = run_cube_loop(1, iters).blocks.at(0);
    const auto twice = run_cube_loop(2, iters).blocks.at(0);
    const double mte1 = busy(single, ascendopt_twin::PipeId::MTE1), m = busy(single, ascendopt_twin::PipeId::M);
    EXPECT_DOUBLE_EQ(busy(twice, ascendopt_twin::PipeId::MTE1), mte1);
    EXPECT_GT(single.end_cycles, 0.95 * (mte1 + m));                  // serialized
    EXPECT_LT(twice.end_cycles, 0.8 * single.end_cycles);             // overlapped
    EXPECT_GT(twice.end_cycles, std::max(mte1, m));                   // but not below the bound
}

namespace {

ascendopt_twin::SocSpec soc_with_l2(double resident) {
    ascendopt_twin::SocSpec s = ascendopt_twin::testing::test_soc();
    s.timing.l2_resident_fraction = resident;
    return s;
}

}  // namespace

// The memory system (docs/timing-model.md, "GM, L2 and the core's port"): HBM and L2 shares
// per active core, and the share of a launch's traffic that hits L2.
TEST(MemorySystem, TheL2ShareFollowsResidencyAndWhetherTheLaunchFits) {
    const auto warm = soc_with_l2(1.0);
    const uint64_t l2 = warm.l2_bytes;
    EXPECT_DOUBLE_EQ(ascendopt_twin::dma_rates(warm, 48, l2 / 2).l2_hit, 1.0);
    EXPECT_DOUBLE_EQ(ascendopt_twin::dma_rates(warm, 48, 2 * l2).l2_hit, 0.5);  // half of it fits
    EXPECT_DOUBLE_EQ(ascendopt_twin::dma_rates(soc_with_l2(0.0), 48, 1024).l2_hit, 0.0);
    const auto r = ascendopt_twin::dma_rates(warm, 48, 1024);
    const auto& t = warm.timing;
    EXPECT_DOUBLE_EQ(r.hbm, std::min(t.mte_bytes_per_cycle, t.gm_bytes_per_cycle / 48));
    EXPECT_DOUBLE_EQ(r.l2_read, std::min(t.l2_read_bytes_per_cycle, t.l2_bytes_per_cycle / 48));
    // One core alone gets its own rate limits, not a 48th of the chip.
    EXPECT_DOUBLE_EQ(ascendopt_twin::dma_rates(warm, 1, 1024).l2_read, t.l2_read_bytes_per_cycle);
    // A blend: a quarter from L2, the rest from HBM.
    ascendopt_twin::DmaRates blend{10, 40, 20, 0.25};
    EXPECT_DOUBLE_EQ(blend.transfer_cycles(400, false), 400 * 0.25 / 40 + 400 * 0.75 / 10);
    EXPECT_DOUBLE_EQ(blend.transfer_cycles(400, true), 400 * 0.25 / 20 + 400 * 0.75 / 10);
}

TEST(MemorySystem, ACoresReadsAndWritesShareItsPort) {
    const auto& soc = ascendopt_twin::testing::test_soc();
    const ascendopt_twin::DmaRates rates{16, 16, 16, 0};
    const uint64_t bytes = 1 << 16;
    const double transfer = double(bytes) / 16;
    ascendopt_twin::CoreTimeline both(soc.timing, rates, false);
    both.copy(ascendopt_twin::PipeId::MTE2, "DataCopy", bytes, 1, nullptr);
    both.copy(ascendopt_twin::PipeId::MTE3, "DataCopy", bytes, 1, nullptr);
    ascendopt_twin::CoreTimeline read_only(soc.timing, rates, false);
    read_only.copy(ascendopt_twin::PipeId::MTE2, "DataCopy", bytes, 1, nullptr);
    // Independent pipes, one port: the second transfer follows the first.
    EXPECT_NEAR(both.quiesce() - read_only.quiesce(), transfer, 1e-6 * transfer);
}
