// The timing model of one core (docs/timing-model.md). Instructions arrive in program order
// from the functional execution; each is placed on its pipe at
//     start = max(scalar issue time, pipe free, gates of the UB buffers it touches)
// and its duration comes from the SoC's timing parameters. Queue hand-offs move the gates
// (DeQue: data ready; AllocTensor: previous user done), SetFlag/WaitFlag move pipe times,
// PipeBarrier<PIPE_ALL> joins all pipes, SyncAll joins all cores, and the kernel's own scalar
// code advances the scalar time by its executed basic blocks. Times are cycles, as doubles.
// Not thread-safe: one timeline per core thread.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "ascendopt_twin/runtime.h"
#include "ascendopt_twin/soc.h"

namespace ascendopt_twin {

constexpr size_t k_pipes = size_t(PipeId::count);
const char* pipe_name(PipeId p);

struct PipeStats {
    double busy = 0;     // cycles the pipe was executing
    double startup = 0;  // part of busy spent in fixed per-instruction latency (DMA start-up, vector issue)
    uint64_t count = 0;
    uint64_t bytes = 0;
};

struct TraceEvent {
    uint8_t pipe;
    const char* name;  // a string literal
    double start;
    double duration;
    uint64_t bytes;
};

// One core's DMA rates in a launch (bytes per cycle), given how many cores share HBM and L2,
// and the share of its GM traffic that hits L2. Reads (MTE2) and writes (MTE3, FIX -> GM) of a
// core share one port: a core's transfers do not overlap each other.
struct DmaRates {
    double hbm = 0;
    double l2_read = 0;
    double l2_write = 0;
    double l2_hit = 0;
    // Cycles to move `bytes` in direction `write`: the hit share at the L2 rate, the rest at HBM's.
    double transfer_cycles(uint64_t bytes, bool write) const;
};
DmaRates dma_rates(const SocSpec& soc, uint32_t active_cores, uint64_t launch_gm_bytes);

class CoreTimeline {
public:
    // `dma`: this core's share of HBM and L2 in its launch.
    CoreTimeline(const TimingParams& params, const DmaRates& dma, bool keep_trace);

    void copy(PipeId pipe, const char* kind, uint64_t bytes, uint32_t bursts, const void* ub);
    // A cube-side instruction (MTE1, M, FIX): `work` cycles plus the pipe's fixed set-up
    // (mte1.setup_cycles, cube.issue_cycles, fixpipe.setup_cycles); `gm_bytes` > 0 makes it a DMA
    // into GM (at least gm_bytes over the core's GM bandwidth, after the DMA latency).
    void cube(PipeId pipe, const char* kind, double work, uint64_t bytes, const CubeOperands& operands, uint64_t gm_bytes);
    void vector(const char* kind, uint64_t bytes, const void* dst, const void* src0, const void* src1);
    void scalar_access(const void* ub, bool write);
    void queue(QueueOp op, const void* slot);
    void add_slots(const void* base, uint32_t count, uint32_t len);
    void flag(bool set, int src_pipe, int dst_pipe, int32_t id);
    void barrier(bool all_pipes);
    // Time when everything issued so far is done; SyncAll then aligns every core to `t`.
    double quiesce();
    void align(double t);
    // When `pipe` (a PipeId, or -1 for all) is done with what it has so far: a CrossCoreSetFlag's
    // ready time. wait_until: the core issues nothing more before `t` (CrossCoreWaitFlag).
    double pipe_done(int pipe);
    void wait_until(double t, const char* what);
    // Kernel scalar code: `total` basic blocks executed so far on this core.
    void basic_blocks(uint64_t total);
    // End of the core's work; call once, after the kernel returns.
    double finish(uint64_t total_basic_blocks);

    const std::array<PipeStats, k_pipes>& stats() const { return m_stats; }
    const std::vector<TraceEvent>& trace() const { return m_trace; }
    uint64_t dropped_events() const { return m_dropped; }
    uint64_t basic_block_count() const { return m_bb_seen; }

private:
    struct Slot {
        const uint8_t* begin;
        const uint8_t* end;
        double gate = 0;      // no instruction touching the buffer starts earlier
        double last_end = 0;  // end of the last instruction that touched it
        double handoff = 0;   // data-ready time recorded at EnQue
        double free_at = 0;   // release time recorded at FreeTensor
    };
    Slot* find(const void* p);
    double gate_of(std::initializer_list<const void*> ptrs);
    void touch(std::initializer_list<const void*> ptrs, double end);
    // Issues an instruction that may start at `ready`; returns its end.
    double place(PipeId pipe, const char* kind, double ready, double duration, double startup, uint64_t bytes);
    // Books an instruction at `start` on its pipe; returns its end.
    double commit(PipeId pipe, const char* kind, double start, double duration, double startup, uint64_t bytes);
    void charge_scalar(double cycles, const char* what);
    void record(PipeId pipe, const char* name, double start, double duration, uint64_t bytes);

    // A GM transfer of `bytes` that may begin at `earliest`: it takes the first gap of the
    // core's DMA port, which reads and writes share, that is long enough; returns its end.
    double transfer(double earliest, uint64_t bytes, bool write);

    const TimingParams& m_p;
    DmaRates m_dma;
    // The port's busy intervals [begin, end), sorted and disjoint; those no later transfer can
    // reach (before every DMA pipe's free time) are dropped.
    std::vector<std::pair<double, double>> m_port;
    bool m_keep_trace;
    double m_scalar = 0;  // the S pipe: issue point of the next instruction
    std::array<double, k_pipes> m_free{};
    std::array<PipeStats, k_pipes> m_stats{};
    std::vector<Slot> m_slots;
    std::vector<std::pair<uint64_t, double>> m_flags;  // (src, dst, id) key -> set time
    uint64_t m_bb_seen = 0;
    std::vector<TraceEvent> m_trace;
    uint64_t m_dropped = 0;
};

}  // namespace ascendopt_twin
