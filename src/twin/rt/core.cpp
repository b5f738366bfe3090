// Per-thread core state: block identity, the Unified Buffer arena, mask and reduce
// registers, the current TPipe and instruction counts.
#include <cstdlib>

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
};

namespace {

thread_local CoreScope::State* t_core = nullptr;

CoreScope::State& core(const char* api) {
    if (!t_core) fail(ErrorKind::run_failed, api, "called outside a kernel launch (no current core)");
    return *t_core;
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
                     Barrier* barrier)
    : m_state(std::make_unique<State>()) {
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

void record_instr(PipeId pipe, const char* kind, uint64_t bytes) {
    if (!t_core) return;  // host-side use of a tensor in unit tests
    auto& c = t_core->counts;
    c.count[size_t(pipe)] += 1;
    c.bytes[size_t(pipe)] += bytes;
    c.by_kind[kind] += 1;
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
    if (!c.gm) fail(ErrorKind::run_failed, api, "no GM in this context");
    return c.gm->translate(addr, bytes, write, api);
}

void load_tiling(void* dst, size_t size, const uint8_t* device_tiling_addr) {
    const uint8_t* src = gm_translate(reinterpret_cast<uint64_t>(device_tiling_addr), size, false, "GET_TILING_DATA");
    std::memcpy(dst, src, size);
}

void sync_all() {
    auto& c = core("SyncAll");
    record_instr(PipeId::S, "sync_all", 0);
    if (c.barrier) c.barrier->arrive_and_wait(c.block_idx);
}

}  // namespace ascendopt_twin
