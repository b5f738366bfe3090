// Kernel launch: one thread per block, each with its own core, and SyncAll between them.
#include <pthread.h>

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>

#include "twin_rt.h"

namespace ascendopt_twin {

struct Barrier::Impl {
    std::mutex mutex;
    std::condition_variable cv;
    int64_t participants = 0;
    int64_t arrived = 0;
    uint64_t generation = 0;
    int64_t left_block = -1;  // first block that ended
    double gathering = 0;     // largest ready time of the current generation
    double released = 0;      // result of the last completed generation
};

Barrier::Barrier(int64_t participants) : m_impl(std::make_shared<Impl>()) { m_impl->participants = participants; }

double Barrier::arrive_and_wait(int64_t block, double ready_time) {
    auto& s = *m_impl;
    std::unique_lock<std::mutex> lock(s.mutex);
    auto deadlock = [&] {
        const int64_t gone = s.left_block;
        lock.unlock();
        fail(ErrorKind::run_failed, "SyncAll",
             "block " + std::to_string(block) + " waits at SyncAll but block " + std::to_string(gone) +
                 " has already returned; every block must call SyncAll the same number of times (this hangs an NPU)");
    };
    if (s.left_block >= 0) deadlock();
    const uint64_t gen = s.generation;
    s.gathering = std::max(s.gathering, ready_time);
    if (++s.arrived == s.participants) {
        s.arrived = 0;
        s.released = s.gathering;
        s.gathering = 0;
        ++s.generation;
        s.cv.notify_all();
        return s.released;
    }
    s.cv.wait(lock, [&] { return s.generation != gen || s.left_block >= 0; });
    if (s.generation == gen) deadlock();
    return s.released;  // stays valid until every block arrives again, this one included
}

void Barrier::leave(int64_t block) {
    auto& s = *m_impl;
    std::lock_guard<std::mutex> lock(s.mutex);
    if (s.left_block < 0) s.left_block = block;
    s.cv.notify_all();
}

namespace {

using Arg = uint8_t*;

void call_kernel(KernelEntry entry, const std::vector<Arg>& a) {
    switch (a.size()) {
#define ASCENDOPT_CALL(N, ...) \
    case N: reinterpret_cast<void (*)(ASCENDOPT_ARGS_##N)>(entry)(__VA_ARGS__); return;
#define ASCENDOPT_ARGS_2 Arg, Arg
#define ASCENDOPT_ARGS_3 Arg, Arg, Arg
#define ASCENDOPT_ARGS_4 Arg, Arg, Arg, Arg
#define ASCENDOPT_ARGS_5 Arg, Arg, Arg, Arg, Arg
#define ASCENDOPT_ARGS_6 Arg, Arg, Arg, Arg, Arg, Arg
#define ASCENDOPT_ARGS_7 Arg, Arg, Arg, Arg, Arg, Arg, Arg
#define ASCENDOPT_ARGS_8 Arg, Arg, Arg, Arg, Arg, Arg, Arg, Arg
#define ASCENDOPT_ARGS_9 Arg, Arg, Arg, Arg, Arg, Arg, Arg, Arg, Arg
#define ASCENDOPT_ARGS_10 Arg, Arg, Arg, Arg, Arg, Arg, Arg, Arg, Arg, Arg
#define ASCENDOPT_ARGS_11 Arg, Arg, Arg, Arg, Arg, Arg, Arg, Arg, Arg, Arg, Arg
#define ASCENDOPT_ARGS_12 Arg, Arg, Arg, Arg, Arg, Arg, Arg, Arg, Arg, Arg, Arg, Arg
        ASCENDOPT_CALL(2, a[0], a[1])
        ASCENDOPT_CALL(3, a[0], a[1], a[2])
        ASCENDOPT_CALL(4, a[0], a[1], a[2], a[3])
        ASCENDOPT_CALL(5, a[0], a[1], a[2], a[3], a[4])
        ASCENDOPT_CALL(6, a[0], a[1], a[2], a[3], a[4], a[5])
        ASCENDOPT_CALL(7, a[0], a[1], a[2], a[3], a[4], a[5], a[6])
        ASCENDOPT_CALL(8, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7])
        ASCENDOPT_CALL(9, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8])
        ASCENDOPT_CALL(10, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9])
        ASCENDOPT_CALL(11, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10])
        ASCENDOPT_CALL(12, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11])
#undef ASCENDOPT_CALL
        default:
            fail(ErrorKind::run_failed, "launch",
                 "kernels with " + std::to_string(a.size()) + " GM arguments are not supported (2..12)");
    }
}

struct BlockJob {
    const SocSpec* soc;
    KernelEntry entry;
    const std::vector<Arg>* args;
    uint32_t block_dim;
    uint32_t block;
    uint64_t tiling_key;
    GmSpace* gm;
    Barrier* barrier;
    LaunchOptions options;
    InstrCounts counts;
    uint32_t ub_bytes = 0;
    std::vector<UbOverrun> ub_overruns;
    BlockTiming result;
    std::exception_ptr error;
};

// Keeps, per API and buffer, the furthest overrun any block made.
void merge_overrun(std::vector<UbOverrun>& all, const UbOverrun& o) {
    for (auto& a : all)
        if (a.api == o.api && a.which == o.which && a.buffer == o.buffer) {
            a.bytes_past = std::max(a.bytes_past, o.bytes_past);
            return;
        }
    all.push_back(o);
}

void* run_block(void* p) {
    auto& job = *static_cast<BlockJob*>(p);
    try {
        CoreScope scope(*job.soc, job.block, job.block_dim, job.tiling_key, job.gm, job.barrier, job.options);
        bool stopped = false;  // a preflight ended the block at its first data access
        try {
            call_kernel(job.entry, *job.args);
        } catch (const PreflightStop&) {
            stopped = true;
        }
        job.ub_bytes = scope.ub_bytes_used();
        job.ub_overruns = scope.ub_overruns();
        job.counts = scope.counts();
        if (CoreTimeline* t = stopped ? nullptr : scope.timeline()) {
            job.result.end_cycles = scope.finish();
            job.result.pipes = t->stats();
            job.result.basic_blocks = t->basic_block_count();
            job.result.trace = t->trace();
            job.result.dropped_events = t->dropped_events();
        }
    } catch (...) {
        job.error = std::current_exception();
    }
    job.barrier->leave(job.block);
    return nullptr;
}

}  // namespace

LaunchResult launch(const SocSpec& soc, KernelEntry kernel, const std::vector<uint8_t*>& args, uint32_t block_dim,
                    uint64_t tiling_key, GmSpace& gm, const LaunchOptions& options_in) {
    // GM bandwidth is shared by the cores that run at once.
    LaunchOptions options = options_in;
    const uint32_t active = std::max(1u, std::min(block_dim, soc.vector_cores));
    options.mte_bytes_per_cycle = std::min(soc.timing.mte_bytes_per_cycle, soc.timing.gm_bytes_per_cycle / active);
    constexpr size_t k_stack = 2u << 20;
    Barrier barrier(block_dim);
    std::vector<BlockJob> jobs(block_dim);
    std::vector<pthread_t> threads(block_dim);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, k_stack);
    for (uint32_t b = 0; b < block_dim; ++b) {
        jobs[b] = BlockJob{&soc, kernel, &args, block_dim, b, tiling_key, &gm, &barrier, options, {}, 0, {}, {}, nullptr};
        if (pthread_create(&threads[b], &attr, run_block, &jobs[b]) != 0)
            fail(ErrorKind::resource_exceeded, "launch", "cannot start the thread for block " + std::to_string(b));
    }
    pthread_attr_destroy(&attr);
    for (auto& t : threads) pthread_join(t, nullptr);
    LaunchResult r;
    for (auto& j : jobs) {
        if (j.error) std::rethrow_exception(j.error);
        r.counts.merge(j.counts);
        r.ub_bytes = std::max(r.ub_bytes, j.ub_bytes);
        for (const auto& o : j.ub_overruns) merge_overrun(r.ub_overruns, o);
    }
    // InitBuffer itself never fails on the device, but a buffer placed past the UB's end faults
    // at its first use, which a kernel makes in all but pathological cases: a preflight, which
    // stops before any use, reports it so a search need not spend a run on it.
    if (options.preflight && r.ub_bytes > soc.ub_bytes)
        fail(ErrorKind::resource_exceeded, "TPipe::InitBuffer",
             "the kernel's InitBuffer calls hand out " + std::to_string(r.ub_bytes) + " bytes of UB, past the core's " +
                 std::to_string(soc.ub_bytes) + "-byte UB; the first use of a buffer past the end faults on the device");
    if (!options.timing || options.preflight) return r;
    // Blocks beyond the physical cores run after the earlier blocks on the same core.
    std::vector<double> core_end(std::max(1u, soc.vector_cores), 0.0);
    for (uint32_t b = 0; b < block_dim; ++b) {
        core_end[b % core_end.size()] += jobs[b].result.end_cycles;
        r.blocks.push_back(std::move(jobs[b].result));
    }
    const double cycles = *std::max_element(core_end.begin(), core_end.end());
    r.latency_us = cycles / (soc.timing.clock_ghz * 1000.0) + soc.timing.launch_overhead_us;
    return r;
}

}  // namespace ascendopt_twin
