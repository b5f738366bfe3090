#include "hazard.h"

#include <algorithm>
#include <utility>

namespace ascendopt_twin {

namespace {

constexpr uint32_t k_block = 32;
constexpr size_t k_pipe_count = size_t(PipeId::count);
constexpr size_t k_max_pending_flags = 16;

uint64_t flag_key(int src, int dst, int32_t id) { return (uint64_t(uint32_t(src)) << 48) | (uint64_t(uint32_t(dst)) << 32) | uint32_t(id); }

bool valid_pipe(int p) { return p >= 0 && p < int(k_pipe_count); }

}  // namespace

// The accesses one 32-byte block has seen: its last write and each pipe's last read since.
// Sequence numbers start at 1; 0 means none.
struct HazardChecker::Cell {
    uint32_t write_seq = 0;
    uint32_t write_site = 0;
    uint8_t write_pipe = 0;
    std::array<uint32_t, k_pipe_count> read_seq{};
    std::array<uint32_t, k_pipe_count> read_site{};
};

const char* hazard_kind_name(HazardKind k) {
    switch (k) {
        case HazardKind::read_after_write: return "read after write";
        case HazardKind::write_after_read: return "write after read";
        case HazardKind::write_after_write: return "write after write";
    }
    return "?";
}

HazardChecker::HazardChecker() = default;
HazardChecker::~HazardChecker() = default;

HazardChecker::Cell* HazardChecker::cells(Mem m, uint32_t first_block, uint32_t blocks) {
    auto& v = m_cells[size_t(m)];
    if (v.size() < size_t(first_block) + blocks) v.resize(size_t(first_block) + blocks);
    return v.data() + first_block;
}

uint32_t HazardChecker::site_id(const Site& s) {
    if (!m_sites.empty() && m_sites.back().api == s.api && m_sites.back().pcs == s.pcs) return uint32_t(m_sites.size() - 1);
    auto [it, added] = m_site_ids.try_emplace(s, uint32_t(m_sites.size()));
    if (added) m_sites.push_back(s);
    return it->second;
}

bool HazardChecker::ordered(PipeId later, PipeId earlier, uint32_t earlier_seq) const {
    return later == earlier || m_clock[size_t(later)][size_t(earlier)] >= earlier_seq;
}

void HazardChecker::report(HazardKind kind, Mem mem, uint32_t block, PipeId earlier_pipe, uint32_t earlier_site, PipeId later_pipe,
                           uint32_t later_site) {
    const std::array<uint32_t, 3> key{uint32_t(kind), earlier_site, later_site};
    if (auto it = m_race_index.find(key); it != m_race_index.end()) {
        Race& r = m_races[it->second];
        ++r.count;
        r.first_byte = std::min(r.first_byte, block * k_block);
        r.last_byte = std::max(r.last_byte, block * k_block + k_block - 1);
        return;
    }
    if (m_races.size() >= k_max_races) {
        ++m_dropped;
        return;
    }
    m_race_index.emplace(key, m_races.size());
    Race r;
    r.kind = kind;
    r.mem = mem;
    r.first_byte = block * k_block;
    r.last_byte = block * k_block + k_block - 1;
    r.earlier_pipe = earlier_pipe;
    r.later_pipe = later_pipe;
    r.earlier = m_sites[earlier_site];
    r.later = m_sites[later_site];
    m_races.push_back(std::move(r));
}

void HazardChecker::instruction(PipeId pipe, const MemAccess* accesses, size_t n, const Site& site) {
    const size_t p = size_t(pipe);
    const uint32_t seq = ++m_issued[p];
    const uint32_t sid = site_id(site);
    // Reads first: an instruction that reads and writes the same bytes (an in-place Add) reads
    // what was there before it.
    for (int pass = 0; pass < 2; ++pass) {
        for (size_t i = 0; i < n; ++i) {
            const MemAccess& a = accesses[i];
            if (a.bytes == 0 || a.write != (pass == 1)) continue;
            const uint32_t first = a.offset / k_block;
            const uint32_t count = (a.offset + a.bytes - 1) / k_block - first + 1;
            Cell* c = cells(a.mem, first, count);
            for (uint32_t b = 0; b < count; ++b, ++c) {
                if (c->write_seq && !ordered(pipe, PipeId(c->write_pipe), c->write_seq))
                    report(a.write ? HazardKind::write_after_write : HazardKind::read_after_write, a.mem, first + b, PipeId(c->write_pipe),
                           c->write_site, pipe, sid);
                if (!a.write) {
                    c->read_seq[p] = seq;
                    c->read_site[p] = sid;
                    continue;
                }
                for (size_t q = 0; q < k_pipe_count; ++q)
                    if (q != size_t(PipeId::S) && c->read_seq[q] && !ordered(pipe, PipeId(q), c->read_seq[q]))
                        report(HazardKind::write_after_read, a.mem, first + b, PipeId(q), c->read_site[q], pipe, sid);
                c->write_seq = seq;
                c->write_site = sid;
                c->write_pipe = uint8_t(p);
                c->read_seq.fill(0);
            }
        }
    }
}

HazardChecker::Clock HazardChecker::snapshot(int pipe) const {
    Clock c = m_clock[size_t(pipe)];
    c[size_t(pipe)] = m_issued[size_t(pipe)];
    return c;
}

void HazardChecker::join(int pipe, const Clock& c) {
    Clock& mine = m_clock[size_t(pipe)];
    for (size_t q = 0; q < k_pipe_count; ++q) mine[q] = std::max(mine[q], c[q]);
}

void HazardChecker::flag(bool set, int src, int dst, int32_t id) {
    if (!valid_pipe(src) || !valid_pipe(dst)) return;
    auto& pending = m_flags[flag_key(src, dst, id)];
    if (set) {
        // The device's flag is a counter of a few set events; a kernel that sets without ever
        // waiting is not allowed to grow this without bound.
        if (pending.size() >= k_max_pending_flags) pending.pop_front();
        pending.push_back(snapshot(src));
        return;
    }
    if (pending.empty()) return;  // a wait with no set before it orders nothing
    join(dst, pending.front());
    pending.pop_front();
}

void HazardChecker::barrier_all() {
    for (auto& c : m_clock)
        for (size_t q = 0; q < k_pipe_count; ++q) c[q] = std::max(c[q], m_issued[q]);
}

void HazardChecker::release(uint64_t key, int from_pipe) {
    if (valid_pipe(from_pipe)) m_handoffs[key] = snapshot(from_pipe);
    else m_handoffs.erase(key);
}

void HazardChecker::acquire(uint64_t key, int to_pipe, Mem mem, uint32_t offset, uint32_t bytes) {
    if (auto it = m_handoffs.find(key); it != m_handoffs.end()) {
        if (valid_pipe(to_pipe)) join(to_pipe, it->second);
        m_handoffs.erase(it);
    }
    if (bytes == 0) return;
    auto& v = m_cells[size_t(mem)];
    const size_t first = offset / k_block;
    const size_t end = std::min(v.size(), size_t((uint64_t(offset) + bytes + k_block - 1) / k_block));
    for (size_t b = first; b < end; ++b) v[b] = Cell{};
}

}  // namespace ascendopt_twin
