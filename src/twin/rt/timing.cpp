#include "timing.h"

#include <algorithm>
#include <cmath>

namespace ascendopt_twin {
namespace {

constexpr size_t k_max_trace_events = 50000;  // per core; later events are counted, not kept

uint64_t flag_key(int src, int dst, int32_t id) {
    return (uint64_t(uint8_t(src)) << 40) | (uint64_t(uint8_t(dst)) << 32) | uint32_t(id);
}

}  // namespace

const char* pipe_name(PipeId p) {
    static const char* names[] = {"S", "V", "MTE2", "MTE3", "MTE1", "M", "FIX"};
    static_assert(sizeof(names) / sizeof(names[0]) == k_pipes, "a name for every PipeId");
    return names[size_t(p)];
}

double DmaRates::transfer_cycles(uint64_t bytes, bool write) const {
    const double l2 = write ? l2_write : l2_read;
    const double hit = l2 > 0 ? l2_hit : 0.0;
    return double(bytes) * (hit > 0 ? hit / l2 : 0.0) + double(bytes) * (1 - hit) / hbm;
}

DmaRates dma_rates(const SocSpec& soc, uint32_t active_cores, uint64_t launch_gm_bytes) {
    const TimingParams& t = soc.timing;
    const double active = std::max(1u, active_cores);
    DmaRates r;
    r.hbm = std::min(t.mte_bytes_per_cycle, t.gm_bytes_per_cycle / active);
    if (soc.l2_bytes == 0 || t.l2_bytes_per_cycle <= 0 || t.l2_read_bytes_per_cycle <= 0 || t.l2_write_bytes_per_cycle <= 0) return r;
    r.l2_read = std::min(t.l2_read_bytes_per_cycle, t.l2_bytes_per_cycle / active);
    r.l2_write = std::min(t.l2_write_bytes_per_cycle, t.l2_bytes_per_cycle / active);
    const double fits = launch_gm_bytes == 0 ? 1.0 : std::min(1.0, double(soc.l2_bytes) / double(launch_gm_bytes));
    r.l2_hit = std::clamp(t.l2_resident_fraction, 0.0, 1.0) * fits;
    return r;
}

CoreTimeline::CoreTimeline(const TimingParams& params, const DmaRates& dma, bool keep_trace)
    : m_p(params), m_dma(dma), m_keep_trace(keep_trace) {}

double CoreTimeline::transfer(double earliest, uint64_t bytes, bool write) {
    const double length = m_dma.transfer_cycles(bytes, write);
    double begin = earliest;
    auto at = m_port.begin();
    for (; at != m_port.end(); ++at) {
        if (at->second <= begin) continue;
        if (at->first >= begin + length) break;  // the gap before this interval fits
        begin = at->second;
    }
    m_port.insert(at, {begin, begin + length});
    // A later transfer starts after its issue, which is no earlier than the scalar time now:
    // intervals that end before it cannot matter any more.
    std::erase_if(m_port, [&](const auto& i) { return i.second < m_scalar; });
    return begin + length;
}

CoreTimeline::Slot* CoreTimeline::find(const void* p) {
    const auto* b = static_cast<const uint8_t*>(p);
    for (auto& s : m_slots)
        if (b >= s.begin && b < s.end) return &s;
    return nullptr;
}

double CoreTimeline::gate_of(std::initializer_list<const void*> ptrs) {
    double g = 0;
    for (const void* p : ptrs)
        if (p)
            if (Slot* s = find(p)) g = std::max(g, s->gate);
    return g;
}

void CoreTimeline::touch(std::initializer_list<const void*> ptrs, double end) {
    for (const void* p : ptrs)
        if (p)
            if (Slot* s = find(p)) s->last_end = std::max(s->last_end, end);
}

void CoreTimeline::record(PipeId pipe, const char* name, double start, double duration, uint64_t bytes) {
    if (!m_keep_trace) return;
    if (m_trace.size() >= k_max_trace_events) {
        ++m_dropped;
        return;
    }
    m_trace.push_back({uint8_t(pipe), name, start, duration, bytes});
}

void CoreTimeline::charge_scalar(double cycles, const char* what) {
    if (cycles <= 0) return;
    auto& s = m_stats[size_t(PipeId::S)];
    s.busy += cycles;
    // Consecutive scalar work of the same kind shows as one trace event.
    if (m_keep_trace && !m_trace.empty() && m_trace.back().pipe == uint8_t(PipeId::S) && m_trace.back().name == what &&
        std::fabs(m_trace.back().start + m_trace.back().duration - m_scalar) < 1e-9) {
        m_trace.back().duration += cycles;
    } else {
        record(PipeId::S, what, m_scalar, cycles, 0);
    }
    m_scalar += cycles;
}

double CoreTimeline::place(PipeId pipe, const char* kind, double ready, double duration, double startup, uint64_t bytes) {
    charge_scalar(m_p.scalar_issue_cycles, "issue");
    const double start = std::max({m_scalar, m_free[size_t(pipe)], ready});
    return commit(pipe, kind, start, duration, startup, bytes);
}

double CoreTimeline::commit(PipeId pipe, const char* kind, double start, double duration, double startup, uint64_t bytes) {
    const size_t i = size_t(pipe);
    m_free[i] = start + duration;
    auto& st = m_stats[i];
    st.busy += duration;
    st.startup += startup;
    st.count += 1;
    st.bytes += bytes;
    record(pipe, kind, start, duration, bytes);
    return start + duration;
}

// A DMA occupies its pipe for a fixed set-up plus its transfer; its latency only delays the
// start of its own data and overlaps the transfers of earlier DMAs on the pipe, which is what
// lets issuing early (double buffering) hide it.
void CoreTimeline::copy(PipeId pipe, const char* kind, uint64_t bytes, uint32_t bursts, const void* ub) {
    charge_scalar(m_p.scalar_issue_cycles, "issue");
    const size_t i = size_t(pipe);
    const double ready = std::max(m_scalar, gate_of({ub}));
    const double setup = m_p.mte_setup_cycles + double(bursts > 1 ? bursts - 1 : 0) * m_p.mte_burst_cycles;
    const double start = std::max(m_free[i], ready + m_p.mte_latency_cycles);
    // MTE2 reads GM, MTE3 writes it; the two share the core's port.
    const double end = transfer(start + setup, bytes, pipe == PipeId::MTE3);
    touch({ub}, commit(pipe, kind, start, end - start, setup, bytes));
}

void CoreTimeline::cube(PipeId pipe, const char* kind, double work, uint64_t bytes, const CubeOperands& o, uint64_t gm_bytes) {
    const CubeTiming& c = m_p.cube;
    const double fixed = pipe == PipeId::MTE1 ? c.mte1_setup_cycles : pipe == PipeId::M ? c.m_issue_cycles
                         : pipe == PipeId::FIX ? c.fix_setup_cycles : 0.0;
    charge_scalar(m_p.scalar_issue_cycles, "issue");
    const double ready = std::max(m_scalar, gate_of({o.dst, o.src0, o.src1, o.src2}));
    double start = std::max(m_free[size_t(pipe)], ready);
    if (gm_bytes > 0) {  // a write into GM: the DMA's latency and this core's port to GM
        start = std::max(m_free[size_t(pipe)], ready + m_p.mte_latency_cycles);
        work = std::max(work, transfer(start + fixed, gm_bytes, true) - start - fixed);
    }
    touch({o.dst, o.src0, o.src1, o.src2}, commit(pipe, kind, start, fixed + work, fixed, bytes));
}

void CoreTimeline::vector(const char* kind, uint64_t bytes, const void* dst, const void* src0, const void* src1) {
    const auto it = m_p.vector_cycles_per_repeat.find(kind);
    const double per_repeat = it == m_p.vector_cycles_per_repeat.end() ? m_p.vector_default_cycles_per_repeat : it->second;
    const double repeats = std::ceil(double(bytes) / 256.0);
    const double end = place(PipeId::V, kind, gate_of({dst, src0, src1}), m_p.vector_issue_cycles + repeats * per_repeat,
                             m_p.vector_issue_cycles, bytes);
    touch({dst, src0, src1}, end);
}

void CoreTimeline::scalar_access(const void* ub, bool write) {
    if (!ub) {
        charge_scalar(m_p.gm_access_cycles, write ? "gm_write" : "gm_read");
        return;
    }
    Slot* s = find(ub);
    if (s && !write) m_scalar = std::max(m_scalar, std::max(s->last_end, s->gate));  // waits for the data
    charge_scalar(m_p.ub_access_cycles, write ? "ub_write" : "ub_read");
    if (s && write) s->last_end = std::max(s->last_end, m_scalar);
}

void CoreTimeline::add_slots(const void* base, uint32_t count, uint32_t len) {
    const auto* b = static_cast<const uint8_t*>(base);
    const uint8_t* e = b + uint64_t(count) * len;
    // After TPipe::Reset the same UB is handed out again: the new buffers replace the old.
    std::erase_if(m_slots, [&](const Slot& s) { return s.begin < e && b < s.end; });
    for (uint32_t i = 0; i < count; ++i) m_slots.push_back(Slot{b + i * len, b + (i + 1) * len});
}

void CoreTimeline::queue(QueueOp op, const void* slot) {
    Slot* s = find(slot);
    if (!s) return;
    switch (op) {
        case QueueOp::alloc: s->gate = std::max(s->gate, s->free_at); break;
        case QueueOp::enque: s->handoff = std::max(s->last_end, m_scalar); break;
        case QueueOp::deque: s->gate = std::max(s->gate, s->handoff); break;
        case QueueOp::free: s->free_at = std::max(s->last_end, s->gate); break;
    }
}

void CoreTimeline::flag(bool set, int src, int dst, int32_t id) {
    charge_scalar(m_p.flag_cycles, set ? "set_flag" : "wait_flag");
    if (src < 0 || dst < 0) return;
    const uint64_t key = flag_key(src, dst, id);
    if (set) {
        const double t = src == int(PipeId::S) ? m_scalar : m_free[size_t(src)];
        for (auto& [k, v] : m_flags)
            if (k == key) {
                v = std::max(v, t);
                return;
            }
        m_flags.emplace_back(key, t);
        return;
    }
    for (auto& [k, v] : m_flags)
        if (k == key) {
            if (dst == int(PipeId::S)) m_scalar = std::max(m_scalar, v);
            else m_free[size_t(dst)] = std::max(m_free[size_t(dst)], v);
            return;
        }
}

void CoreTimeline::barrier(bool all_pipes) {
    charge_scalar(m_p.barrier_cycles, "pipe_barrier");
    if (!all_pipes) return;
    const double t = quiesce();
    m_scalar = t;
    m_free.fill(t);
}

double CoreTimeline::quiesce() { return std::max(m_scalar, *std::max_element(m_free.begin(), m_free.end())); }

void CoreTimeline::align(double t) {
    m_scalar = t;
    m_free.fill(t);
    charge_scalar(m_p.sync_all_cycles, "sync_all");
    m_free.fill(m_scalar);
}

double CoreTimeline::pipe_done(int pipe) {
    if (pipe < 0) return quiesce();
    return pipe == int(PipeId::S) ? m_scalar : std::max(m_scalar, m_free[size_t(pipe)]);
}

void CoreTimeline::wait_until(double t, const char* what) {
    if (t > m_scalar) {
        record(PipeId::S, what, m_scalar, t - m_scalar, 0);
        m_scalar = t;
    }
}

void CoreTimeline::basic_blocks(uint64_t total) {
    if (total <= m_bb_seen) return;
    const uint64_t n = total - m_bb_seen;
    m_bb_seen = total;
    charge_scalar(double(n) * m_p.scalar_cycles_per_basic_block, "scalar");
}

double CoreTimeline::finish(uint64_t total_basic_blocks) {
    basic_blocks(total_basic_blocks);
    return quiesce();
}

}  // namespace ascendopt_twin
