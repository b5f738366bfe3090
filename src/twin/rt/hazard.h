// The hazard checker of one core (docs/twin.md "Races"). The twin runs a core's instructions
// one after another, so a kernel that forgets a synchronisation still computes the right
// result here; on the device the pipes (S, V, MTE2, MTE3, MTE1, M, FIX) run concurrently and
// only what the kernel orders is ordered. The checker keeps, per 32-byte block of each on-chip
// memory, the last write and the last read of each pipe, and vector clocks of what each pipe
// is known to follow. An access is ordered after an earlier one on another pipe only through
//   - SetFlag<SRC_DST>(id) followed by WaitFlag<SRC_DST>(id) (DST follows what SRC had issued),
//   - PipeBarrier<PIPE_ALL> and SyncAll (everything follows everything before),
//   - a queue hand-off: EnQue -> DeQue orders the queue's consumer pipe after its producer,
//     FreeTensor -> AllocTensor the producer after the consumer (as the hand-off's flags do on
//     the device), and a DeQue or AllocTensor also orders every earlier access of that buffer
//     before every later one (the checker does not judge whether a queue's position matches its
//     use: it reports only what no hand-off, flag or barrier orders).
// Instructions of one pipe run in order; PipeBarrier<PIPE_V> and the like therefore order
// nothing the checker tracks. A read of bytes another pipe wrote, a write of bytes another pipe
// reads or wrote, with no ordering between them, is a race. Except: a scalar read (GetValue)
// is done when the scalar unit goes on to issue the next instruction, so nothing issued after
// it can overwrite the bytes under it (the scalar unit is the issuer); scalar writes and reads
// of what other pipes write do need their flags (S_V, V_S, ...), as the documentation says.
//
// Not thread-safe: one checker per core thread. Pure bookkeeping: no twin state, so unit tests
// drive it directly.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ascendopt_twin/runtime.h"

namespace ascendopt_twin {

// Where an instruction was issued: the API's name and the return addresses of the frames that
// led to it (innermost first; 0 ends the list). ascendopt resolves them to file:line after the
// run and names the first frame in the operator's own sources.
constexpr size_t k_site_frames = 8;
struct Site {
    const char* api = "";
    std::array<uintptr_t, k_site_frames> pcs{};
    bool operator<(const Site& o) const { return api != o.api ? api < o.api : pcs < o.pcs; }
    bool operator==(const Site& o) const = default;
};

// One operand of an instruction: `bytes` from byte `offset` of on-chip memory `mem`.
struct MemAccess {
    Mem mem;
    uint32_t offset;
    uint32_t bytes;
    bool write;
};

enum class HazardKind : uint8_t { read_after_write, write_after_read, write_after_write };
const char* hazard_kind_name(HazardKind k);  // "read after write", ...

struct Race {
    HazardKind kind = HazardKind::read_after_write;
    Mem mem = Mem::UB;
    uint32_t first_byte = 0;  // the first 32-byte block where it was seen
    uint32_t last_byte = 0;
    PipeId earlier_pipe = PipeId::S, later_pipe = PipeId::S;
    Site earlier, later;  // the instruction issued first, and the one that raced with it
    std::string buffer;   // which buffer the bytes are in (describe_ub), filled by CoreScope
    uint64_t count = 1;   // blocks and instructions it was seen at, merged by (kind, sites)
};

class HazardChecker {
public:
    HazardChecker();
    ~HazardChecker();
    HazardChecker(const HazardChecker&) = delete;
    HazardChecker& operator=(const HazardChecker&) = delete;

    // One instruction on `pipe` touching `accesses` (reads are checked before writes).
    void instruction(PipeId pipe, const MemAccess* accesses, size_t n, const Site& site);
    // SetFlag/WaitFlag<src -> dst>(id); a pipe of -1 (one the twin does not model) orders nothing.
    void flag(bool set, int src_pipe, int dst_pipe, int32_t id);
    // PipeBarrier<PIPE_ALL>, SyncAll: every pipe follows everything issued so far.
    void barrier_all();
    // Queue hand-offs of the buffer [offset, offset + bytes) of `mem`: `release` (EnQue,
    // FreeTensor) from pipe `from`, `acquire` (DeQue, AllocTensor) by pipe `to`; `key` pairs them.
    void release(uint64_t key, int from_pipe);
    void acquire(uint64_t key, int to_pipe, Mem mem, uint32_t offset, uint32_t bytes);

    // Distinct races in the order found, at most k_max_races of them; `dropped` counts the rest.
    static constexpr size_t k_max_races = 32;
    const std::vector<Race>& races() const { return m_races; }
    uint64_t dropped() const { return m_dropped; }

private:
    using Clock = std::array<uint32_t, size_t(PipeId::count)>;
    struct Cell;
    Cell* cells(Mem m, uint32_t first_block, uint32_t blocks);
    uint32_t site_id(const Site& s);
    bool ordered(PipeId later, PipeId earlier, uint32_t earlier_seq) const;
    void report(HazardKind kind, Mem mem, uint32_t block, PipeId earlier_pipe, uint32_t earlier_site, PipeId later_pipe, uint32_t later_site);
    Clock snapshot(int pipe) const;
    void join(int pipe, const Clock& c);

    std::array<uint32_t, size_t(PipeId::count)> m_issued{};  // per pipe: sequence number of its last instruction
    std::array<Clock, size_t(PipeId::count)> m_clock{};      // [p][q]: the last q instruction that p follows
    std::array<std::vector<Cell>, size_t(Mem::count)> m_cells;  // per memory, per 32-byte block (grown on use)
    std::map<uint64_t, std::deque<Clock>> m_flags;           // (src, dst, id) -> clocks of pending SetFlags
    std::map<uint64_t, Clock> m_handoffs;                    // queue buffer key -> clock of its last release
    std::map<Site, uint32_t> m_site_ids;
    std::vector<Site> m_sites;
    std::map<std::array<uint32_t, 3>, size_t> m_race_index;  // (kind, earlier site, later site) -> m_races
    std::vector<Race> m_races;
    uint64_t m_dropped = 0;
};

}  // namespace ascendopt_twin
