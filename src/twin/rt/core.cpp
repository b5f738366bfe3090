// Per-thread core state: block identity, the Unified Buffer arena, mask and reduce
// registers, the current TPipe and instruction counts.
#include <cstdlib>

#include "timing.h"
#include "twin_rt.h"

namespace ascendopt_twin {

struct CoreScope::State {
    const SocSpec* soc = nullptr;
    int64_t block_idx = 0;
    int64_t block_num = 1;
    uint64_t tiling_key = 0;
    GmSpace* gm = nullptr;
    Barrier* barrier = nullptr;
    uint8_t* ub = nullptr;
    MaskState mask;
    ReduceState reduce;
    void* pipe = nullptr;
    InstrCounts counts;
    std::unique_ptr<CoreTimeline> timeline;  // null when timing is off
    bool preflight = false;
    uint32_t ub_high = 0;
};

namespace {

thread_local CoreScope::State* t_core = nullptr;
thread_local uint64_t t_basic_blocks = 0;  // executed basic blocks of instrumented kernel code

CoreScope::State& core(const char* api) {
    if (!t_core) fail(ErrorKind::run_failed, api, "called outside a kernel launch (no current core)");
    return *t_core;
}

// Every data access calls this first; see LaunchOptions::preflight.
void stop_in_preflight() {
    if (t_core && t_core->preflight) throw PreflightStop{};
}

}  // namespace

void InstrCounts::merge(const InstrCounts& o) {
    for (size_t i = 0; i < size_t(PipeId::count); ++i) {
        count[i] += o.count[i];
        bytes[i] += o.bytes[i];
    }
    for (const auto& [k, v] : o.by_kind) by_kind[k] += v;
}

CoreScope::CoreScope(const SocSpec& soc, int64_t block_idx, int64_t block_num, uint64_t tiling_key, GmSpace* gm,
                     Barrier* barrier, const LaunchOptions& options)
    : m_state(std::make_unique<State>()) {
    if (options.timing && !options.preflight) {
        const double bw = options.mte_bytes_per_cycle > 0 ? options.mte_bytes_per_cycle : soc.timing.mte_bytes_per_cycle;
        m_state->timeline = std::make_unique<CoreTimeline>(soc.timing, bw, options.trace);
    }
    m_state->preflight = options.preflight;
    t_basic_blocks = 0;
    m_state->soc = &soc;
    m_state->block_idx = block_idx;
    m_state->block_num = block_num;
    m_state->tiling_key = tiling_key;
    m_state->gm = gm;
    m_state->barrier = barrier;
    m_state->ub = static_cast<uint8_t*>(std::aligned_alloc(32, (soc.ub_bytes + 31) & ~uint64_t(31)));
    t_core = m_state.get();
}

CoreScope::~CoreScope() {
    if (t_core == m_state.get()) t_core = nullptr;
    std::free(m_state->ub);
}

const InstrCounts& CoreScope::counts() const { return m_state->counts; }

CoreTimeline* CoreScope::timeline() const { return m_state->timeline.get(); }

uint32_t CoreScope::ub_bytes_used() const { return m_state->ub_high; }

double CoreScope::finish() {
    return m_state->timeline ? m_state->timeline->finish(t_basic_blocks) : 0.0;
}

namespace {

void count(PipeId pipe, const char* kind, uint64_t bytes) {
    auto& c = t_core->counts;
    c.count[size_t(pipe)] += 1;
    c.bytes[size_t(pipe)] += bytes;
    c.by_kind[kind] += 1;
}

// The current core's timeline, with the kernel's scalar work up to now charged; null when
// there is no core (host-side tensor use in tests) or timing is off.
CoreTimeline* timeline() {
    if (!t_core || !t_core->timeline) return nullptr;
    t_core->timeline->basic_blocks(t_basic_blocks);
    return t_core->timeline.get();
}

}  // namespace

void account_copy(PipeId pipe, const char* kind, uint64_t bytes, uint32_t bursts, const void* ub) {
    if (!t_core) return;
    stop_in_preflight();
    count(pipe, kind, bytes);
    if (auto* t = timeline()) t->copy(pipe, kind, bytes, bursts, ub);
}

void account_vector(const char* kind, uint64_t bytes, const void* dst, const void* src0, const void* src1) {
    if (!t_core) return;
    stop_in_preflight();
    count(PipeId::V, kind, bytes);
    if (auto* t = timeline()) t->vector(kind, bytes, dst, src0, src1);
}

void account_scalar(const void* ub, bool write) {
    if (!t_core) return;
    stop_in_preflight();
    count(PipeId::S, ub ? (write ? "ub_scalar_write" : "ub_scalar_read") : (write ? "gm_scalar_write" : "gm_scalar_read"), 0);
    if (auto* t = timeline()) t->scalar_access(ub, write);
}

void account_queue(QueueOp op, const void* slot) {
    if (auto* t = timeline()) t->queue(op, slot);
}

void account_ub_slots(const void* base, uint32_t count_, uint32_t len) {
    if (t_core && t_core->ub) {
        const uint64_t end = uint64_t(static_cast<const uint8_t*>(base) - t_core->ub) + uint64_t(count_) * len;
        t_core->ub_high = uint32_t(std::max<uint64_t>(t_core->ub_high, end));
    }
    if (auto* t = timeline()) t->add_slots(base, count_, len);
}

void account_flag(bool set, int src_pipe, int dst_pipe, int32_t id) {
    if (!t_core) return;
    count(PipeId::S, set ? "SetFlag" : "WaitFlag", 0);
    if (auto* t = timeline()) t->flag(set, src_pipe, dst_pipe, id);
}

void account_barrier(bool all_pipes) {
    if (!t_core) return;
    count(PipeId::S, all_pipes ? "PipeBarrier(ALL)" : "PipeBarrier", 0);
    if (auto* t = timeline()) t->barrier(all_pipes);
}

int64_t block_idx() { return core("GetBlockIdx").block_idx; }
int64_t block_num() { return core("GetBlockNum").block_num; }
uint64_t tiling_key() { return core("TILING_KEY_IS").tiling_key; }
uint8_t* ub_base() { return core("UB access").ub; }
uint32_t ub_size() { return static_cast<uint32_t>(core("UB access").soc->ub_bytes); }
MaskState& mask_state() { return core("SetVectorMask").mask; }
ReduceState& reduce_state() { return core("GetReduceMaxMinCount").reduce; }
void* current_pipe() { return t_core ? t_core->pipe : nullptr; }
void set_current_pipe(void* pipe) {
    if (t_core) t_core->pipe = pipe;
}

uint8_t* gm_translate(uint64_t addr, uint64_t bytes, bool write, const char* api) {
    auto& c = core(api);
    stop_in_preflight();
    if (!c.gm) fail(ErrorKind::run_failed, api, "no GM in this context");
    return c.gm->translate(addr, bytes, write, api);
}

void load_tiling(void* dst, size_t size, const uint8_t* device_tiling_addr) {
    auto& c = core("GET_TILING_DATA");
    if (!c.gm) fail(ErrorKind::run_failed, "GET_TILING_DATA", "no GM in this context");
    const uint8_t* src = c.gm->translate(reinterpret_cast<uint64_t>(device_tiling_addr), size, false, "GET_TILING_DATA");
    std::memcpy(dst, src, size);
}

void sync_all() {
    auto& c = core("SyncAll");
    stop_in_preflight();
    count(PipeId::S, "sync_all", 0);
    CoreTimeline* t = timeline();
    const double ready = t ? t->quiesce() : 0.0;
    const double all_ready = c.barrier ? c.barrier->arrive_and_wait(c.block_idx, ready) : ready;
    if (t) t->align(all_ready);
}

}  // namespace ascendopt_twin

// Called by -fsanitize-coverage=trace-pc at every basic block of the kernel's own code
// (the twin's headers opt out with ASCENDOPT_TWIN_FN); the timing model charges them as
// scalar work. Must stay trivial: it runs millions of times.
extern "C" void __sanitizer_cov_trace_pc() { ++ascendopt_twin::t_basic_blocks; }

namespace ascendopt_twin {

}  // namespace ascendopt_twin
