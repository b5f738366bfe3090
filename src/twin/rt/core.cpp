// Per-thread core state: block identity, the Unified Buffer arena, mask and reduce
// registers, the current TPipe and instruction counts.
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <map>

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
    struct UbBuffers {  // one InitBuffer: `count` buffers of `len` bytes from UB offset `base`
        uint32_t base, count, len;
        const char* kind;
    };
    std::vector<UbBuffers> ub_buffers;  // in InitBuffer order
    bool strict_ub = false;
    std::map<std::string, UbOverrun> ub_overruns;  // by API and buffer
};

namespace {

// The UB's bytes, then PROT_NONE up to the end of the window: on the device InitBuffer hands out
// UB offsets without checking them against the UB's size, and only an access past the end
// faults; here it faults too, and the fault handler names the buffer (ub_fault_report).
uint8_t* map_ub_window(uint64_t ub_bytes) {
    void* p = mmap(nullptr, k_ub_window_bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) fail(ErrorKind::resource_exceeded, "UB", "cannot reserve the core's UB window");
    const uint64_t page = uint64_t(sysconf(_SC_PAGESIZE));
    if (mprotect(p, (ub_bytes + page - 1) / page * page, PROT_READ | PROT_WRITE) != 0)
        fail(ErrorKind::resource_exceeded, "UB", "cannot map the core's " + std::to_string(ub_bytes) + " bytes of UB");
    return static_cast<uint8_t*>(p);
}

using State = CoreScope::State;
thread_local State* t_core = nullptr;
thread_local uint64_t t_basic_blocks = 0;  // executed basic blocks of instrumented kernel code

CoreScope::State& core(const char* api) {
    if (!t_core) fail(ErrorKind::run_failed, api, "called outside a kernel launch (no current core)");
    return *t_core;
}

// Every data access calls this first; see LaunchOptions::preflight.
void stop_in_preflight() {
    if (t_core && t_core->preflight) throw PreflightStop{};
}

std::atomic<RunningCode> g_running_code{RunningCode::harness};

}  // namespace

void set_running_code(RunningCode code) { g_running_code.store(code); }
RunningCode running_code() { return g_running_code.load(); }
int64_t current_block_or_none() { return t_core ? t_core->block_idx : -1; }

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
    m_state->strict_ub = options.strict_ub;
    t_basic_blocks = 0;
    m_state->soc = &soc;
    m_state->block_idx = block_idx;
    m_state->block_num = block_num;
    m_state->tiling_key = tiling_key;
    m_state->gm = gm;
    m_state->barrier = barrier;
    m_state->ub = map_ub_window(soc.ub_bytes);
    t_core = m_state.get();
}

CoreScope::~CoreScope() {
    if (t_core == m_state.get()) t_core = nullptr;
    munmap(m_state->ub, k_ub_window_bytes);
}

const InstrCounts& CoreScope::counts() const { return m_state->counts; }

CoreTimeline* CoreScope::timeline() const { return m_state->timeline.get(); }

uint32_t CoreScope::ub_bytes_used() const { return m_state->ub_high; }

std::vector<UbOverrun> CoreScope::ub_overruns() const {
    std::vector<UbOverrun> out;
    for (const auto& [key, o] : m_state->ub_overruns) out.push_back(o);
    return out;
}

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

void account_ub_slots(const void* base, uint32_t count_, uint32_t len, const char* kind) {
    if (t_core && t_core->ub) {
        const uint64_t start = uint64_t(static_cast<const uint8_t*>(base) - t_core->ub);
        const uint64_t end = start + uint64_t(count_) * len;
        t_core->ub_high = uint32_t(std::max<uint64_t>(t_core->ub_high, end));
        t_core->ub_buffers.push_back({uint32_t(start), count_, len, kind});
    }
    if (auto* t = timeline()) t->add_slots(base, count_, len);
}

void check_ub_access(const char* api, const char* which, const void* start, uint64_t bytes, uint64_t buffer_bytes) {
    if (!t_core || !t_core->ub) return;
    const uint64_t from = uint64_t(static_cast<const uint8_t*>(start) - t_core->ub);
    const std::string tensor = *which ? std::string("the ") + which + " tensor" : std::string("the tensor");
    if (from + bytes > t_core->soc->ub_bytes)  // a buffer InitBuffer placed past the UB's end, or an overrun
        fail(ErrorKind::resource_exceeded, api,
             "the access covers UB bytes " + std::to_string(from) + ".." + std::to_string(from + bytes - 1) + ", past the end of the core's " +
                 std::to_string(t_core->soc->ub_bytes) + "-byte UB; " + tensor + " is " + describe_ub(start) +
                 " (InitBuffer hands out UB past its end without complaint on the device, but using it faults)");
    if (bytes <= buffer_bytes) return;
    const std::string what = "the access covers " + std::to_string(bytes) + " bytes from the start of " + tensor + ", but its UB buffer holds " +
                             std::to_string(buffer_bytes) + " from there; " + tensor + " is " + describe_ub(start);
    if (t_core->strict_ub) fail(ErrorKind::run_failed, api, what + " (--strict-ub)");
    UbOverrun& o = t_core->ub_overruns[std::string(api) + "\n" + which + "\n" + describe_ub(start)];
    if (bytes - buffer_bytes > o.bytes_past) o = {api, which, describe_ub(start), bytes - buffer_bytes};
}

std::optional<std::string> ub_fault_report(uint64_t addr) {
    if (!t_core || !t_core->ub) return std::nullopt;
    const uint64_t base = reinterpret_cast<uint64_t>(t_core->ub);
    if (addr < base || addr >= base + k_ub_window_bytes) return std::nullopt;
    return "an access at UB byte " + std::to_string(addr - base) + " lies past the end of the core's " +
           std::to_string(t_core->soc->ub_bytes) + "-byte UB; it is " + describe_ub(reinterpret_cast<const void*>(addr)) +
           " (InitBuffer places buffers past the UB's end without complaint on the device, but using them faults)";
}

std::string describe_ub(const void* ub) {
    if (!t_core || !t_core->ub) return "not in a kernel's UB";
    const int64_t off = static_cast<const uint8_t*>(ub) - t_core->ub;
    const auto& sets = t_core->ub_buffers;
    for (size_t k = sets.size(); k-- > 0;) {  // the latest InitBuffer that covers it
        const auto& b = sets[k];
        if (off < int64_t(b.base) || off >= int64_t(b.base) + int64_t(b.count) * b.len) continue;
        const uint32_t i = uint32_t(off - b.base) / b.len;
        const uint32_t from = b.base + i * b.len;
        std::string s = "in buffer " + std::to_string(i + 1) + " of " + std::to_string(b.count) + " of the " + b.kind +
                        " set up by InitBuffer call " + std::to_string(k + 1) + " (UB bytes " + std::to_string(from) + ".." +
                        std::to_string(from + b.len - 1) + ")";
        if (uint32_t(off) != from) s += ", at its byte " + std::to_string(uint32_t(off) - from);
        return s;
    }
    return "at UB byte " + std::to_string(off) + ", in no buffer that InitBuffer set up";
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
uint64_t ub_window() { return k_ub_window_bytes; }
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
    // Reads of the kernel's own constant tables (rt/program_data.cpp); never writes, which
    // would reach the harness's memory.
    if (!write && !c.gm->contains(addr) && in_program_data(addr, bytes)) return reinterpret_cast<uint8_t*>(addr);
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

void scalar_access(const void* p, uint64_t bytes, bool write) {
    State* c = t_core;
    if (!c) return;
    const uint64_t addr = reinterpret_cast<uint64_t>(p);
    if (c->gm && c->gm->contains(addr)) {
        c->gm->translate(addr, bytes, write, write ? "scalar GM write through a pointer" : "scalar GM read through a pointer");
        account_scalar(nullptr, write);
        return;
    }
    const uint64_t ub = reinterpret_cast<uint64_t>(c->ub);
    if (c->ub && addr >= ub && addr < ub + k_ub_window_bytes) {
        if (addr + bytes > ub + c->soc->ub_bytes)
            fail(ErrorKind::resource_exceeded, "scalar UB access", *ub_fault_report(addr + bytes - 1));
        account_scalar(p, write);
    }
}

}  // namespace ascendopt_twin
