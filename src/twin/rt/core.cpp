// Per-thread core state: block identity and core kind, the on-chip memories (the UB of an AIV;
// L1, L0A, L0B, L0C, BT and FB of an AIC), mask, reduce and cube registers, the current TPipe
// and instruction counts.
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <string_view>

#include "timing.h"
#include "candidate_memory.h"
#include "twin_rt.h"

namespace ascendopt_twin {

constexpr size_t k_mems = size_t(Mem::count);

struct CoreScope::State {
    const SocSpec* soc = nullptr;
    int64_t block_idx = 0;
    int64_t block_num = 1;
    CoreIdentity who;
    uint64_t tiling_key = 0;
    GmSpace* gm = nullptr;
    LaunchSync* sync = nullptr;
    std::array<uint8_t*, k_mems> base{};  // each memory's k_mem_window_bytes window (see map_core_windows)
    uint8_t* mapped = nullptr;            // this core's own reservation: the windows of its memories
    uint64_t mapped_bytes = 0;
    std::array<uint32_t, k_mems> size{};  // bytes of each memory this core has (0: none)
    MaskState mask;
    ReduceState reduce;
    CubeState cube;
    void* pipe = nullptr;
    InstrCounts counts;
    std::unique_ptr<CoreTimeline> timeline;  // null when timing is off
    // The same instructions under LaunchOptions::timing_variants; cleared (lose_variants) when
    // the core does something they cannot follow exactly.
    std::vector<std::unique_ptr<CoreTimeline>> variant_timelines;
    std::vector<double> variant_end;  // filled by finish
    bool preflight = false;
    std::array<uint32_t, k_mems> high{};  // InitBuffer high-water mark per memory
    struct Buffers {  // one InitBuffer: `count` buffers of `len` bytes from offset `base` of `mem`
        Mem mem;
        uint32_t base, count, len;
        const char* kind;
    };
    std::vector<Buffers> buffers;  // in InitBuffer order
    bool strict_ub = false;
    std::map<std::string, UbOverrun> ub_overruns;  // by API and buffer
    // The hazard checker (null when off) and the on-chip operands the current API has checked
    // (check_ub_access), which its instruction then reads or writes.
    std::unique_ptr<HazardChecker> hazards;
    std::vector<MemAccess> pending;
    uintptr_t stack_low = 0, stack_high = 0;  // this thread's stack, for walking the frames of a site
};

namespace {

// Each memory's bytes from the start of its window, then PROT_NONE up to the window's end: on
// the device InitBuffer hands out offsets without checking them against the memory's size, and
// only an access past the end faults; here it faults too, and the fault handler names the
// buffer (ub_fault_report).
//
// Address space is the limit here, not memory: a case runs under RLIMIT_AS (8 GiB by default),
// which counts PROT_NONE reservations too, so 72 cores of a 24-block mixed launch reserving a
// window for all seven memories (72 x 7 x 16 MiB = 7.9 GiB) did not fit. A core therefore
// reserves windows only for the memories its kind has (an AIV 16 MiB, an AIC 96 MiB), and the
// memories it lacks point at one process-wide PROT_NONE reservation of seven windows: using a
// missing memory still faults, and mem_of still tells which memory it was.
uint8_t* absent_windows() {
    static uint8_t* const windows = [] {
        void* p = mmap(nullptr, k_core_window_bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) fail(ErrorKind::resource_exceeded, "UB", "cannot reserve the window of the memories cores lack");
        return static_cast<uint8_t*>(p);
    }();
    return windows;
}

using State = CoreScope::State;

void map_core_windows(State& st) {
    size_t present = 0;
    for (size_t m = 0; m < k_mems; ++m) present += st.size[m] ? 1 : 0;
    st.mapped_bytes = present * k_mem_window_bytes;
    void* p = mmap(nullptr, st.mapped_bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        fail(ErrorKind::resource_exceeded, "UB",
             "cannot reserve the core's memory windows (" + std::to_string(st.mapped_bytes >> 20) + " MiB of address space)");
    st.mapped = static_cast<uint8_t*>(p);
    const uint64_t page = uint64_t(sysconf(_SC_PAGESIZE));
    size_t next = 0;
    for (size_t m = 0; m < k_mems; ++m) {
        if (!st.size[m]) {
            st.base[m] = absent_windows() + m * k_mem_window_bytes;
            continue;
        }
        st.base[m] = st.mapped + next++ * k_mem_window_bytes;
        if (mprotect(st.base[m], (st.size[m] + page - 1) / page * page, PROT_READ | PROT_WRITE) != 0)
            fail(ErrorKind::resource_exceeded, mem_name(Mem(m)), "cannot map the core's " + std::to_string(st.size[m]) + " bytes of " + mem_name(Mem(m)));
    }
}
thread_local State* t_core = nullptr;
thread_local uint64_t t_basic_blocks = 0;  // executed basic blocks of instrumented kernel code

// The thread's stack bounds: a site's frames are walked only inside them.
void start_hazard_checker(State& st) {
    st.hazards = std::make_unique<HazardChecker>();
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return;  // no bounds: sites without frames
    void* addr = nullptr;
    size_t size = 0;
    if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
        st.stack_low = reinterpret_cast<uintptr_t>(addr);
        st.stack_high = st.stack_low + size;
    }
    pthread_attr_destroy(&attr);
}

CoreScope::State& core(const char* api) {
    if (!t_core) fail(ErrorKind::run_failed, api, "called outside a kernel launch (no current core)");
    return *t_core;
}

// Every data access calls this first: a preflight ends the block here (LaunchOptions::preflight),
// and so does a lower core's failure, which the launch reports whatever this core would do next.
void stop_here_if_asked() {
    if (!t_core) return;
    if (t_core->preflight) throw PreflightStop{};
    if (t_core->sync && t_core->sync->outranked(t_core->who.sync_index)) throw CoreStopped{};
}

std::atomic<RunningCode> g_running_code{RunningCode::harness};

}  // namespace

void set_running_code(RunningCode code) { g_running_code.store(code); }
RunningCode running_code() { return g_running_code.load(); }
int64_t current_block_or_none() { return t_core ? t_core->block_idx : -1; }
int64_t current_core_or_none() { return t_core ? int64_t(t_core->who.sync_index) : -1; }

void InstrCounts::merge(const InstrCounts& o) {
    for (size_t i = 0; i < size_t(PipeId::count); ++i) {
        count[i] += o.count[i];
        bytes[i] += o.bytes[i];
    }
    for (const auto& [k, v] : o.by_kind) by_kind[k] += v;
}

CoreScope::CoreScope(const SocSpec& soc, int64_t block_idx, int64_t block_num, uint64_t tiling_key, GmSpace* gm,
                     LaunchSync* sync, const LaunchOptions& options, const CoreIdentity& who)
    : m_state(std::make_unique<State>()) {
    if (options.timing && !options.preflight) {
        const DmaRates dma = options.dma.hbm > 0 ? options.dma : dma_rates(soc, 1, 0);
        m_state->timeline = std::make_unique<CoreTimeline>(soc.timing, dma, options.trace);
        for (const auto& v : options.timing_variants) {
            const DmaRates vdma = v.dma.hbm > 0 ? v.dma : dma_rates(*v.soc, 1, 0);
            m_state->variant_timelines.push_back(std::make_unique<CoreTimeline>(v.soc->timing, vdma, false));
        }
    }
    m_state->preflight = options.preflight;
    m_state->strict_ub = options.strict_ub;
    if (options.check_races && !options.preflight) start_hazard_checker(*m_state);
    t_basic_blocks = 0;
    m_state->soc = &soc;
    m_state->block_idx = block_idx;
    m_state->block_num = block_num;
    m_state->tiling_key = tiling_key;
    m_state->gm = gm;
    m_state->sync = sync;
    m_state->who = who;
    auto& size = m_state->size;
    if (who.kind == CoreKind::aiv) {
        size[size_t(Mem::UB)] = uint32_t(soc.ub_bytes);
    } else {
        size[size_t(Mem::L1)] = uint32_t(soc.l1_bytes);
        size[size_t(Mem::L0A)] = uint32_t(soc.l0a_bytes);
        size[size_t(Mem::L0B)] = uint32_t(soc.l0b_bytes);
        size[size_t(Mem::L0C)] = uint32_t(soc.l0c_bytes);
        size[size_t(Mem::BT)] = uint32_t(soc.bt_bytes);
        size[size_t(Mem::FB)] = uint32_t(soc.fb_bytes);
    }
    map_core_windows(*m_state);
    t_core = m_state.get();
}

CoreScope::~CoreScope() {
    if (t_core == m_state.get()) t_core = nullptr;
    munmap(m_state->mapped, m_state->mapped_bytes);
}

const InstrCounts& CoreScope::counts() const { return m_state->counts; }

CoreTimeline* CoreScope::timeline() const { return m_state->timeline.get(); }
std::vector<double> CoreScope::variant_end_cycles() const { return m_state->variant_end; }

uint32_t CoreScope::ub_bytes_used() const { return m_state->high[size_t(Mem::UB)]; }
uint32_t CoreScope::mem_bytes_used(Mem m) const { return m_state->high[size_t(m)]; }

std::vector<Race> CoreScope::races() const {
    if (!m_state->hazards) return {};
    std::vector<Race> out = m_state->hazards->races();
    for (auto& r : out) r.buffer = describe_ub(m_state->base[size_t(r.mem)] + r.first_byte);
    return out;
}
uint64_t CoreScope::races_dropped() const { return m_state->hazards ? m_state->hazards->dropped() : 0; }

std::vector<UbOverrun> CoreScope::ub_overruns() const {
    std::vector<UbOverrun> out;
    for (const auto& [key, o] : m_state->ub_overruns) out.push_back(o);
    return out;
}

double CoreScope::finish() {
    for (auto& v : m_state->variant_timelines) m_state->variant_end.push_back(v->finish(t_basic_blocks));
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

// Gives an instruction to the main timeline and every variant's, each with the kernel's
// scalar work up to now charged.
template <class Issue>
void each_timeline(Issue&& issue) {
    if (CoreTimeline* t = timeline()) issue(*t);
    else return;
    for (auto& v : t_core->variant_timelines) {
        v->basic_blocks(t_basic_blocks);
        issue(*v);
    }
}

// The variants' timelines cannot follow what comes next exactly (a time another core computed
// from the main SoC, or cube work whose cycles the caller took from it): they are dropped, and
// the launch reports no variant latencies (LaunchOptions::timing_variants).
void lose_variants() {
    if (t_core) t_core->variant_timelines.clear();
}

// Where the calling API was issued: the return addresses of the frames above this one (the
// twin runtime and library are built with frame pointers, as operator builds are). The walk
// stays inside the thread's stack and only goes up.
__attribute__((noinline)) Site capture_site(const char* api) {
    Site s;
    s.api = api;
    uintptr_t low = t_core->stack_low, high = t_core->stack_high;
    kernel_stack(low, high);  // kernel code runs on a stack of its own (launch.cpp)
    const auto* fp = static_cast<const uintptr_t*>(__builtin_frame_address(0));
    for (size_t i = 0; i < k_site_frames; ++i) {
        const auto at = reinterpret_cast<uintptr_t>(fp);
        if (at % sizeof(uintptr_t) != 0 || at < low || at + 2 * sizeof(uintptr_t) > high) break;
        s.pcs[i] = fp[1];
        const auto* next = reinterpret_cast<const uintptr_t*>(fp[0]);
        if (next <= fp) break;
        fp = next;
    }
    return s;
}

// Whether an operand check_ub_access names is written ("destination", a temporary buffer).
bool writes_operand(std::string_view which) {
    return which == "destination" || which == "dst" || which == "temporary buffer" || which == "sharedTmpBuffer";
}

// An operand the API passed to its accounting call but did not check: `bytes` from `p`.
// The on-chip bytes an operand at `p` touches, cut at its memory's end; nothing for a pointer
// outside the core's memories.
std::optional<MemAccess> operand_at(const void* p, uint64_t bytes, bool write) {
    Mem m;
    uint64_t off = 0;
    if (!p || !mem_of(p, m, off)) return std::nullopt;
    const uint64_t size = t_core->size[size_t(m)];
    if (off >= size) return std::nullopt;
    return MemAccess{m, uint32_t(off), uint32_t(std::min<uint64_t>(bytes, size - off)), write};
}

void add_operand(std::vector<MemAccess>& accesses, const void* p, uint64_t bytes, bool write) {
    const auto a = operand_at(p, bytes, write);
    if (!a) return;
    for (const auto& b : accesses)
        if (b.mem == a->mem && b.offset == a->offset && b.write == write) return;  // checked already
    accesses.push_back(*a);
}

// Hands the current instruction to the hazard checker: the operands its API checked, and
// those of `operands` it did not (`writes`: which of them it writes).
void check_hazards(PipeId pipe, const char* api, uint64_t bytes, std::initializer_list<std::pair<const void*, bool>> operands) {
    State& st = *t_core;
    if (!st.hazards) return;
    for (const auto& [p, write] : operands) add_operand(st.pending, p, bytes, write);
    st.hazards->instruction(pipe, st.pending.data(), st.pending.size(), capture_site(api));
    st.pending.clear();
}

}  // namespace

void account_copy(PipeId pipe, const char* kind, uint64_t bytes, uint32_t bursts, const void* ub) {
    if (!t_core) return;
    stop_here_if_asked();
    count(pipe, kind, bytes);
    check_hazards(pipe, kind, bytes, {{ub, pipe == PipeId::MTE2}});
    each_timeline([&](CoreTimeline& t) { t.copy(pipe, kind, bytes, bursts, ub); });
}

namespace {

std::string core_name(const State& c) {
    std::string s = std::string(core_kind_name(c.who.kind)) + " core (block " + std::to_string(c.block_idx);
    if (c.who.sub_block_num > 1) s += ", sub-block " + std::to_string(c.who.sub_block_idx);
    return s + ")";
}

// On an AIC, DataCopy between LocalTensors (copy.h routes it to the vector pipe) is the MTE1
// copy L1 -> BT (bias) or L1 -> FB (quantization tables); anything else has no data path.
void cube_local_copy(const char* kind, uint64_t bytes, const void* dst, const void* src) {
    Mem dm = Mem::UB, sm = Mem::UB;
    uint64_t doff = 0, soff = 0;
    mem_of(dst, dm, doff);
    mem_of(src, sm, soff);
    if (sm != Mem::L1 || (dm != Mem::BT && dm != Mem::FB))
        fail(ErrorKind::run_failed, "DataCopy",
             std::string("no data path from ") + mem_name(sm) + " to " + mem_name(dm) + " on an " + core_name(*t_core) +
                 "; between LocalTensors a cube core copies L1 -> BT (TPosition C1 -> C2) and L1 -> FB (C1 -> C2PIPE2GM)");
    if (doff % 64 != 0)
        fail(ErrorKind::run_failed, "DataCopy",
             std::string("the destination starts at ") + mem_name(dm) + " byte " + std::to_string(doff) + ", not a multiple of 64 bytes");
    const double cycles = double(bytes) / t_core->soc->timing.cube.mte1_bt_bytes_per_cycle;
    (void)kind;
    const char* name = dm == Mem::BT ? "DataCopy(L1->BT)" : "DataCopy(L1->FB)";
    count(PipeId::MTE1, name, bytes);
    check_hazards(PipeId::MTE1, name, bytes, {{dst, true}, {src, false}});
    lose_variants();
    if (auto* t = timeline()) t->cube(PipeId::MTE1, name, cycles, bytes, {dst, src}, 0);
}

}  // namespace

void account_vector(const char* kind, uint64_t bytes, const void* dst, const void* src0, const void* src1) {
    if (!t_core) return;
    stop_here_if_asked();
    if (t_core->who.kind == CoreKind::aic) {
        if (std::string_view(kind) == "copy_ub_to_ub") return cube_local_copy(kind, bytes, dst, src0);
        fail(ErrorKind::run_failed, kind,
             std::string("a vector instruction on an ") + core_name(*t_core) +
                 "; vector APIs run on AIV cores: guard them with ASCEND_IS_AIV (or launch the kernel as a vector kernel type)");
    }
    count(PipeId::V, kind, bytes);
    check_hazards(PipeId::V, kind, bytes, {{dst, true}, {src0, false}, {src1, false}});
    each_timeline([&](CoreTimeline& t) { t.vector(kind, bytes, dst, src0, src1); });
}

void account_cube(PipeId pipe, const char* kind, double cycles, uint64_t bytes, const CubeOperands& o, uint64_t gm_bytes) {
    if (!t_core) return;
    stop_here_if_asked();
    require_core(CoreKind::aic, kind);
    count(pipe, kind, bytes);
    check_hazards(pipe, kind, bytes, {{o.dst, true}, {o.src0, false}, {o.src1, false}, {o.src2, false}});
    lose_variants();
    if (auto* t = timeline()) t->cube(pipe, kind, cycles, bytes, o, gm_bytes);
}

const CubeTiming& cube_timing() {
    static const CubeTiming defaults;
    return t_core ? t_core->soc->timing.cube : defaults;
}

void require_core(CoreKind kind, const char* api) {
    auto& c = core(api);
    if (c.who.kind == kind) return;
    if (kind == CoreKind::aic)
        fail(ErrorKind::run_failed, api,
             std::string("a cube API on an ") + core_name(c) +
                 "; cube APIs run on AIC cores: launch the kernel with a cube kernel type (KERNEL_TYPE_AIC_ONLY or a MIX type, the "
                 "job's kernel_type) and guard cube code with ASCEND_IS_AIC");
    fail(ErrorKind::run_failed, api,
         std::string("a vector API on an ") + core_name(c) + "; vector APIs run on AIV cores: guard them with ASCEND_IS_AIV");
}

void account_scalar(const void* ub, bool write, uint32_t bytes) {
    if (!t_core) return;
    stop_here_if_asked();
    const char* kind = ub ? (write ? "ub_scalar_write" : "ub_scalar_read") : (write ? "gm_scalar_write" : "gm_scalar_read");
    count(PipeId::S, kind, 0);
    if (ub && t_core->hazards) {
        // Its own operand only: the pending list belongs to the API being issued, if any (an
        // element check, check_element, adds nothing to it).
        if (const auto one = operand_at(ub, bytes, write)) t_core->hazards->instruction(PipeId::S, &*one, 1, capture_site(kind));
    }
    each_timeline([&](CoreTimeline& t) { t.scalar_access(ub, write); });
}

void account_queue(QueueOp op, const void* slot, uint32_t len, int producer, int consumer) {
    if (t_core && t_core->hazards) {
        Mem m;
        uint64_t off = 0;
        if (mem_of(slot, m, off)) {
            // EnQue -> DeQue and FreeTensor -> AllocTensor pair by the buffer and the direction.
            const uint64_t key = (off << 4 | uint64_t(m)) << 1;
            HazardChecker& h = *t_core->hazards;
            switch (op) {
                case QueueOp::enque: h.release(key, producer); break;
                case QueueOp::deque: h.acquire(key, consumer, m, uint32_t(off), len); break;
                case QueueOp::free: h.release(key | 1, consumer); break;
                case QueueOp::alloc: h.acquire(key | 1, producer, m, uint32_t(off), len); break;
            }
        }
    }
    each_timeline([&](CoreTimeline& t) { t.queue(op, slot); });
}

void order_internal_steps() {
    if (t_core && t_core->hazards) t_core->hazards->barrier_all();
}

bool mem_of(const void* p, Mem& m, uint64_t& offset) {
    if (!t_core || !t_core->mapped) return false;
    const auto* b = static_cast<const uint8_t*>(p);
    for (size_t i = 0; i < k_mems; ++i)
        if (b >= t_core->base[i] && b < t_core->base[i] + k_mem_window_bytes) {
            m = Mem(i);
            offset = uint64_t(b - t_core->base[i]);
            return true;
        }
    return false;
}

void account_ub_slots(const void* base, uint32_t count_, uint32_t len, const char* kind) {
    Mem m;
    uint64_t start = 0;
    if (mem_of(base, m, start)) {
        const uint64_t end = start + uint64_t(count_) * len;
        t_core->high[size_t(m)] = uint32_t(std::max<uint64_t>(t_core->high[size_t(m)], end));
        t_core->buffers.push_back({m, uint32_t(start), count_, len, kind});
    }
    each_timeline([&](CoreTimeline& t) { t.add_slots(base, count_, len); });
}

namespace {

// Why memory `m` is not there: "UB, which an AIC core (block 0) does not have (...)".
std::string missing_memory(Mem m) {
    const bool cube_mem = m != Mem::UB;
    return std::string(mem_name(m)) + ", which an " + core_name(*t_core) + " does not have" +
           (cube_mem ? " (a cube buffer used on a vector core: cube APIs run on AIC cores, guarded by ASCEND_IS_AIC)"
                     : " (a UB buffer used on a cube core: vector APIs run on AIV cores, guarded by ASCEND_IS_AIV)");
}

}  // namespace

void check_ub_access(const char* api, const char* which, const void* start, uint64_t bytes, uint64_t buffer_bytes) {
    Mem m;
    uint64_t from = 0;
    if (!mem_of(start, m, from)) return;
    const std::string tensor = *which ? std::string("the ") + which + " tensor" : std::string("the tensor");
    const uint32_t size = t_core->size[size_t(m)];
    if (t_core->hazards && *which && from < size && t_core->pending.size() < 64)
        t_core->pending.push_back({m, uint32_t(from), uint32_t(std::min<uint64_t>(bytes, size - from)), writes_operand(which)});
    if (size == 0) fail(ErrorKind::run_failed, api, tensor + " is in " + missing_memory(m));
    // Strings only where they are used: std::string's functions may be the kernel's instrumented
    // instantiations, charged as the kernel's scalar work.
    if (from + bytes > size) {  // a buffer InitBuffer placed past the memory's end, or an overrun
        const std::string mem = mem_name(m);
        fail(ErrorKind::resource_exceeded, api,
             "the access covers " + mem + " bytes " + std::to_string(from) + ".." + std::to_string(from + bytes - 1) + ", past the end of the core's " +
                 std::to_string(size) + "-byte " + mem + "; " + tensor + " is " + describe_ub(start) + " (InitBuffer hands out " + mem +
                 " past its end without complaint on the device, but using it faults)");
    }
    if (bytes <= buffer_bytes) return;
    static const char* const k_but_its[size_t(Mem::count)] = {", but its UB buffer holds ", ", but its L1 buffer holds ", ", but its L0A buffer holds ",
                                                       ", but its L0B buffer holds ", ", but its L0C buffer holds ", ", but its BT buffer holds ",
                                                       ", but its FB buffer holds "};
    const std::string what = "the access covers " + std::to_string(bytes) + " bytes from the start of " + tensor + k_but_its[size_t(m)] +
                             std::to_string(buffer_bytes) + " from there; " + tensor + " is " + describe_ub(start);
    if (t_core->strict_ub) fail(ErrorKind::run_failed, api, what + " (--strict-ub)");
    UbOverrun& o = t_core->ub_overruns[std::string(api) + "\n" + which + "\n" + describe_ub(start)];
    if (bytes - buffer_bytes > o.bytes_past) o = {api, which, describe_ub(start), bytes - buffer_bytes};
}

std::optional<std::string> ub_fault_report(uint64_t addr) {
    Mem m;
    uint64_t off = 0;
    if (!mem_of(reinterpret_cast<const void*>(addr), m, off)) return std::nullopt;
    const uint32_t size = t_core->size[size_t(m)];
    if (size == 0) return "an access at " + std::string(mem_name(m)) + " byte " + std::to_string(off) + " is in " + missing_memory(m);
    return "an access at " + std::string(mem_name(m)) + " byte " + std::to_string(off) + " lies past the end of the core's " + std::to_string(size) +
           "-byte " + mem_name(m) + "; it is " + describe_ub(reinterpret_cast<const void*>(addr)) + " (InitBuffer places buffers past the " +
           mem_name(m) + "'s end without complaint on the device, but using them faults)";
}

std::string describe_ub(const void* ub) {
    Mem m;
    uint64_t off64 = 0;
    if (!mem_of(ub, m, off64)) return "not in a kernel's on-chip memory";
    const int64_t off = int64_t(off64);
    // Literal per memory, so the message costs the string operations it did with the UB alone
    // (std::string's functions may be the kernel's instrumented instantiations: scalar work).
    static const char* const k_bytes[size_t(Mem::count)] = {" (UB bytes ", " (L1 bytes ", " (L0A bytes ", " (L0B bytes ",
                                                            " (L0C bytes ", " (BT bytes ", " (FB bytes "};
    static const char* const k_at[size_t(Mem::count)] = {"at UB byte ", "at L1 byte ", "at L0A byte ", "at L0B byte ",
                                                         "at L0C byte ", "at BT byte ", "at FB byte "};
    const auto& sets = t_core->buffers;
    for (size_t k = sets.size(); k-- > 0;) {  // the latest InitBuffer that covers it
        const auto& b = sets[k];
        if (b.mem != m || off < int64_t(b.base) || off >= int64_t(b.base) + int64_t(b.count) * b.len) continue;
        const uint32_t i = uint32_t(off - b.base) / b.len;
        const uint32_t from = b.base + i * b.len;
        std::string s = "in buffer " + std::to_string(i + 1) + " of " + std::to_string(b.count) + " of the " + b.kind +
                        " set up by InitBuffer call " + std::to_string(k + 1) + k_bytes[size_t(m)] + std::to_string(from) + ".." +
                        std::to_string(from + b.len - 1) + ")";
        if (uint32_t(off) != from) s += ", at its byte " + std::to_string(uint32_t(off) - from);
        return s;
    }
    return k_at[size_t(m)] + std::to_string(off) + ", in no buffer that InitBuffer set up";
}

void account_flag(bool set, int src_pipe, int dst_pipe, int32_t id) {
    if (!t_core) return;
    count(PipeId::S, set ? "SetFlag" : "WaitFlag", 0);
    if (t_core->hazards) t_core->hazards->flag(set, src_pipe, dst_pipe, id);
    each_timeline([&](CoreTimeline& t) { t.flag(set, src_pipe, dst_pipe, id); });
}

void account_barrier(bool all_pipes) {
    if (!t_core) return;
    count(PipeId::S, all_pipes ? "PipeBarrier(ALL)" : "PipeBarrier", 0);
    if (all_pipes && t_core->hazards) t_core->hazards->barrier_all();
    each_timeline([&](CoreTimeline& t) { t.barrier(all_pipes); });
}

const char* core_kind_name(CoreKind kind) { return kind == CoreKind::aic ? "AIC" : "AIV"; }
const char* mem_name(Mem m) {
    static const char* names[] = {"UB", "L1", "L0A", "L0B", "L0C", "BT", "FB"};
    return size_t(m) < k_mems ? names[size_t(m)] : "?";
}

int64_t block_idx() { return core("GetBlockIdx").block_idx; }
int64_t block_num() { return core("GetBlockNum").block_num; }
int64_t sub_block_idx() { return core("GetSubBlockIdx").who.sub_block_idx; }
int64_t sub_block_num() { return core("GetSubBlockNum").who.sub_block_num; }
int64_t task_ratio() { return core("GetTaskRatio").who.task_ratio; }
CoreKind core_kind() { return core("g_coreType").who.kind; }
uint64_t tiling_key() { return core("TILING_KEY_IS").tiling_key; }
uint8_t* ub_base() { return core("UB access").base[size_t(Mem::UB)]; }
uint32_t ub_size() { return core("UB access").size[size_t(Mem::UB)]; }
uint64_t ub_window() { return k_ub_window_bytes; }
uint8_t* mem_base(Mem m) { return core(mem_name(m)).base[size_t(m)]; }
uint32_t mem_size(Mem m) { return core(mem_name(m)).size[size_t(m)]; }
MaskState& mask_state() { return core("SetVectorMask").mask; }
ReduceState& reduce_state() { return core("GetReduceMaxMinCount").reduce; }
CubeState& cube_state() { return core("cube registers").cube; }
void* current_pipe() { return t_core ? t_core->pipe : nullptr; }
void set_current_pipe(void* pipe) {
    if (t_core) t_core->pipe = pipe;
}

uint8_t* gm_translate(uint64_t addr, uint64_t bytes, bool write, const char* api, uint64_t origin) {
    auto& c = core(api);
    stop_here_if_asked();
    if (!c.gm) fail(ErrorKind::run_failed, api, "no GM in this context");
    // Reads of the kernel's own constant tables (rt/program_data.cpp); never writes, which
    // would reach the harness's memory.
    if (!write && !c.gm->contains(addr) && in_program_data(addr, bytes)) return reinterpret_cast<uint8_t*>(addr);
    return c.gm->translate(addr, bytes, write, api, origin);
}

void gm_check_write(uint64_t addr, uint64_t bytes, const char* api, uint64_t origin) {
    auto& c = core(api);
    stop_here_if_asked();
    if (!c.gm) fail(ErrorKind::run_failed, api, "no GM in this context");
    c.gm->check_write(addr, bytes, api, origin);
}

void load_tiling(void* dst, size_t size, const uint8_t* device_tiling_addr) {
    auto& c = core("GET_TILING_DATA");
    if (!c.gm) fail(ErrorKind::run_failed, "GET_TILING_DATA", "no GM in this context");
    const uint8_t* src = c.gm->translate(reinterpret_cast<uint64_t>(device_tiling_addr), size, false, "GET_TILING_DATA");
    std::memcpy(dst, src, size);
}

void sync_all(bool aiv_only) {
    auto& c = core("SyncAll");
    stop_here_if_asked();
    count(PipeId::S, "sync_all", 0);
    if (c.hazards) c.hazards->barrier_all();
    // Every timing model meets the other cores at its own time: the main one, then each variant.
    std::vector<double> ready;
    each_timeline([&](CoreTimeline& t) { ready.push_back(t.quiesce()); });
    if (ready.empty()) ready.push_back(0.0);  // timing off
    const std::vector<double> all_ready = c.sync ? c.sync->barrier(c.who.sync_index, aiv_only, ready) : ready;
    // A variant another core no longer follows cannot be followed past this point.
    if (all_ready.size() < ready.size()) c.variant_timelines.resize(all_ready.size() - 1);
    size_t i = 0;
    each_timeline([&](CoreTimeline& t) { t.align(all_ready[i++]); });
}

void cross_core_set(int mode, int pipe, uint16_t flag) {
    auto& c = core("CrossCoreSetFlag");
    stop_here_if_asked();
    count(PipeId::S, "CrossCoreSetFlag", 0);
    lose_variants();
    CoreTimeline* t = timeline();
    const double ready = t ? t->pipe_done(pipe) + c.soc->timing.cross_core_flag_cycles : 0.0;
    if (!c.sync) fail(ErrorKind::run_failed, "CrossCoreSetFlag", "called on a core outside a launch (no other cores to signal)");
    c.sync->set_flag(c.who.sync_index, mode, flag, ready);
}

void cross_core_wait(uint16_t flag) {
    auto& c = core("CrossCoreWaitFlag");
    stop_here_if_asked();
    count(PipeId::S, "CrossCoreWaitFlag", 0);
    lose_variants();
    CoreTimeline* t = timeline();
    if (!c.sync)
        fail(ErrorKind::run_failed, "CrossCoreWaitFlag",
             "flag " + std::to_string(flag) + ": called on a core outside a launch, where no core can ever set it (this hangs an NPU)");
    const double raised = c.sync->wait_flag(c.who.sync_index, flag);
    if (t) t->wait_until(raised, "cross_core_wait");
}

double cube_service_call(CubeServiceFn fn, void* ctx, const char* api) {
    auto& c = core(api);
    stop_here_if_asked();
    count(PipeId::S, "matmul_request", 0);
    lose_variants();
    CoreTimeline* t = timeline();
    if (!c.sync) fail(ErrorKind::run_failed, api, "called on a core outside a launch: no AIC serves the Matmul request");
    LaunchSync::ServiceRequest request;
    request.fn = fn;
    request.ctx = ctx;
    request.issued = t ? t->quiesce() + c.soc->timing.cross_core_flag_cycles : 0.0;
    return c.sync->service_call(c.who.sync_index, request, api);
}

void cube_service_serve(void* server) {
    auto& c = core("REGIST_MATMUL_OBJ");
    stop_here_if_asked();
    require_core(CoreKind::aic, "REGIST_MATMUL_OBJ (the Matmul service)");
    lose_variants();
    if (!c.sync) return;
    while (LaunchSync::ServiceRequest* r = c.sync->service_take(c.who.sync_index)) {
        if (CoreTimeline* t = timeline()) t->wait_until(r->issued, "matmul_wait_request");
        r->fn(r->ctx, server);
        CoreTimeline* t = timeline();
        c.sync->service_done(r, t ? t->quiesce() + c.soc->timing.cross_core_flag_cycles : 0.0);
    }
}

int64_t block_aiv_count() {
    auto& c = core("block_aiv_count");
    return c.sync ? int64_t(c.sync->aivs_in_block(c.who.sync_index)) : 0;
}

double pipe_visible_time(PipeId pipe) {
    auto& c = core("pipe_visible_time");
    lose_variants();
    CoreTimeline* t = timeline();
    return t ? t->pipe_done(int(pipe)) + c.soc->timing.cross_core_flag_cycles : 0.0;
}

void cube_wait_until(double time, const char* what) {
    lose_variants();
    if (CoreTimeline* t = timeline()) t->wait_until(time, what);
}

}  // namespace ascendopt_twin

// Called by -fsanitize-coverage=trace-pc at every basic block of the kernel's own code
// (the twin's headers opt out with ASCENDOPT_TWIN_FN); the timing model charges them as
// scalar work. Must stay trivial: it runs millions of times.
extern "C" void __sanitizer_cov_trace_pc() { ++ascendopt_twin::t_basic_blocks; }

namespace ascendopt_twin {
namespace {

[[noreturn]] void refuse_foreign_access(uint64_t addr, uint64_t bytes, bool write) {
    char where[40];
    std::snprintf(where, sizeof where, "0x%llx", static_cast<unsigned long long>(addr));
    fail(ErrorKind::run_failed, "kernel code",
         std::string(write ? "wrote " : "read ") + std::to_string(bytes) + " bytes at " + where +
             ", memory the kernel does not own: a kernel may use its GM tensors, its on-chip buffers, its own stack and "
             "statics (and read constants), nothing of the host (no heap: the device has none) and nothing of the twin "
             "(docs/sandbox.md)");
}

}  // namespace

void scalar_access(const void* p, uint64_t bytes, bool write) {
    State* c = t_core;
    if (!c) return;
    const uint64_t addr = reinterpret_cast<uint64_t>(p);
    // A scalar unit moves at most 8 bytes at once: a wider access (a struct copied inline) is
    // charged as the 8-byte accesses it takes.
    const uint64_t accesses = bytes <= 8 ? 1 : (bytes + 7) / 8;
    if (c->gm && c->gm->contains(addr)) {
        c->gm->translate(addr, bytes, write, write ? "scalar GM write through a pointer" : "scalar GM read through a pointer");
        for (uint64_t i = 0; i < accesses; ++i) account_scalar(nullptr, write);
        return;
    }
    Mem m;
    uint64_t off = 0;
    if (mem_of(p, m, off)) {
        if (off + bytes > c->size[size_t(m)])
            fail(ErrorKind::resource_exceeded, "scalar access to on-chip memory", *ub_fault_report(reinterpret_cast<uint64_t>(p) + bytes - 1));
        for (uint64_t i = 0; i < accesses; ++i)
            account_scalar(static_cast<const uint8_t*>(p) + 8 * i, write, uint32_t(std::min<uint64_t>(8, bytes - 8 * i)));
        return;
    }
    // The first 64 KiB are never mapped: a null pointer's access goes on and faults, and the crash
    // report names the block and line.
    constexpr uint64_t k_never_mapped = uint64_t(1) << 16;
    if (addr < k_never_mapped && bytes <= k_never_mapped - addr) return;
    if (write ? !kernel_may_write(addr, bytes) : !kernel_may_read(addr, bytes)) refuse_foreign_access(addr, bytes, write);
}

}  // namespace ascendopt_twin
