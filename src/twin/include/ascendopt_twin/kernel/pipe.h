// TPipe, TQue, TBuf and TBufPool: allocation of a core's on-chip memories and the queues that
// hand tensors from one pipe to the next. A queue or TBuf lives in the memory its TPosition
// names (VECIN/VECOUT/VECCALC: UB; A1/B1/C1/TSCM: L1; A2: L0A; B2: L0B; CO1: L0C; C2: the bias
// table BT; C2PIPE2GM: the Fixpipe buffer FB), as the Ascend C documentation maps positions to
// memories for the 910B ("通用说明和约束", table 1). TPipe hands out each memory in call order
// and, as on the device, does not check the total against the memory's size: a buffer past
// the end faults when used (docs/twin.md "On-chip memory"). The twin enforces what the
// hardware cannot forgive: AllocTensor with every buffer taken, EnQue/FreeTensor of a tensor
// that does not belong to the queue, DeQue of an empty queue (run_failed).
#pragma once

#include "ascendopt_twin/attrs.h"

#include <string>
#include <type_traits>

#include "ascendopt_twin/kernel/tensor.h"

namespace ascendopt_twin::detail {

constexpr int k_max_queue_buffers = 16;
constexpr size_t k_mems = size_t(Mem::count);

ASCENDOPT_TWIN_FN inline uint32_t align32(uint64_t bytes) { return static_cast<uint32_t>((bytes + 31u) & ~uint64_t(31)); }

// The memory position `p` names on a 910B core, or -1 when it names no on-chip memory there
// (GM; CO2 and SPM, which are Global Memory on the 910B; C2PIPE2LOCAL, reserved).
ASCENDOPT_TWIN_FN constexpr int position_mem(AscendC::TPosition p) {
    using P = AscendC::TPosition;
    switch (p) {
        case P::VECIN: case P::VECOUT: case P::VECCALC: return int(Mem::UB);
        case P::A1: case P::B1: case P::C1: case P::TSCM: return int(Mem::L1);
        case P::A2: return int(Mem::L0A);
        case P::B2: return int(Mem::L0B);
        case P::CO1: return int(Mem::L0C);
        case P::C2: return int(Mem::BT);
        case P::C2PIPE2GM: return int(Mem::FB);
        default: return -1;
    }
}

ASCENDOPT_TWIN_FN inline const char* position_name(AscendC::TPosition p) {
    static const char* names[] = {"GM",     "A1",     "A2",      "B1",  "B2",  "C1",   "C2",        "CO1",          "CO2",
                                  "VECIN",  "VECOUT", "VECCALC", "SPM", "TSCM", "C2PIPE2GM", "C2PIPE2LOCAL", "MAX"};
    return size_t(p) < sizeof(names) / sizeof(names[0]) ? names[size_t(p)] : "?";
}

// The memory a queue or buffer at `pos` is placed in; positions that name no on-chip memory
// are an error naming `api`.
ASCENDOPT_TWIN_FN inline Mem memory_of_position(AscendC::TPosition pos, const char* api) {
    const int m = position_mem(pos);
    if (m < 0)
        fail(ErrorKind::run_failed, api,
             std::string("TPosition::") + position_name(pos) +
                 " is no on-chip memory on this SoC (CO2 and SPM are Global Memory on the 910B); queues and buffers go to "
                 "VECIN/VECOUT/VECCALC (UB), A1/B1/C1/TSCM (L1), A2 (L0A), B2 (L0B), CO1 (L0C), C2 (BT) or C2PIPE2GM (FB)");
    return Mem(m);
}

// The pipes a queue at `p` hands its buffers between: the one that fills them (producer) and
// the one that uses them (consumer), as the queue's EnQue/DeQue flags synchronize them on the
// device (VECIN: MTE2 -> V; VECOUT: V -> MTE3; A1/B1/C1: MTE2 -> MTE1; A2/B2/C2: MTE1 -> M;
// CO1: M -> FIX). -1: none (GM, and positions the hazard checker does not order).
ASCENDOPT_TWIN_FN constexpr int position_producer(AscendC::TPosition p) {
    using P = AscendC::TPosition;
    switch (p) {
        case P::GM: return int(PipeId::MTE2);  // a copy into the queue's memory
        case P::VECIN: case P::A1: case P::B1: case P::C1: return int(PipeId::MTE2);
        case P::VECOUT: case P::VECCALC: return int(PipeId::V);
        case P::A2: case P::B2: case P::C2: case P::C2PIPE2GM: return int(PipeId::MTE1);
        case P::CO1: return int(PipeId::M);
        default: return -1;
    }
}
ASCENDOPT_TWIN_FN constexpr int position_consumer(AscendC::TPosition p) {
    using P = AscendC::TPosition;
    switch (p) {
        case P::VECIN: case P::VECCALC: return int(PipeId::V);
        case P::VECOUT: return int(PipeId::MTE3);
        case P::A1: case P::B1: case P::C1: return int(PipeId::MTE1);
        case P::A2: case P::B2: case P::C2: return int(PipeId::M);
        case P::CO1: case P::CO2: case P::C2PIPE2GM: return int(PipeId::FIX);
        case P::GM: return int(PipeId::MTE3);  // a copy out of the queue's memory
        default: return -1;
    }
}

// Buffers of one queue or TBuf: `count` slices of `len` bytes starting at offset `base` of
// memory `mem`.
class BufferSet {
public:
    ASCENDOPT_TWIN_FN BufferSet() {}  // twin code: not the kernel's instrumented scalar work
    ASCENDOPT_TWIN_FN void init(Mem mem, uint32_t base, int count, uint32_t len, const char* kind) {
        m_mem = mem;
        m_base = base;
        m_count = count;
        m_len = len;
        m_allocated = 0;
        m_enqueued = 0;
        m_next = 0;
        m_head = m_tail = m_queued = 0;
        account_ub_slots(slice(0), uint32_t(count), len, kind);
    }
    // The pipes its hand-offs order (position_producer/consumer); -1: none, as for a TBuf.
    ASCENDOPT_TWIN_FN void set_pipes(int producer, int consumer) {
        m_producer = producer;
        m_consumer = consumer;
    }
    ASCENDOPT_TWIN_FN bool initialized() const { return m_count > 0; }
    ASCENDOPT_TWIN_FN uint32_t len() const { return m_len; }
    ASCENDOPT_TWIN_FN int count() const { return m_count; }
    ASCENDOPT_TWIN_FN Mem mem() const { return m_mem; }
    ASCENDOPT_TWIN_FN uint8_t* slice(int i) const { return mem_base(m_mem) + m_base + uint32_t(i) * m_len; }
    ASCENDOPT_TWIN_FN int queued() const { return m_queued; }
    ASCENDOPT_TWIN_FN bool has_idle() const {
        for (int i = 0; i < m_count; ++i)
            if (!(m_allocated & (1u << i))) return true;
        return false;
    }

    ASCENDOPT_TWIN_FN int alloc(const char* api) {
        require_init(api);
        // Round robin, as the hardware queue does: buffers alternate (ping-pong), so a freed
        // buffer is not reused while another has been free for longer.
        for (int k = 0; k < m_count; ++k) {
            const int i = (m_next + k) % m_count;
            if (!(m_allocated & (1u << i))) {
                m_allocated |= 1u << i;
                m_next = (i + 1) % m_count;
                account_queue(QueueOp::alloc, slice(i), m_len, m_producer, m_consumer);
                return i;
            }
        }
        fail(ErrorKind::run_failed, api,
             "all " + std::to_string(m_count) + " buffers of this queue are in use; a FreeTensor is missing "
             "or the queue needs more buffers in InitBuffer");
    }
    ASCENDOPT_TWIN_FN void release(const void* p, const char* api) {
        const int i = owned_slice(p, api, [this](int k) ASCENDOPT_TWIN_FN { return allocated(k) && !(m_enqueued & (1u << k)); });
        if (!(m_allocated & (1u << i)))
            fail(ErrorKind::run_failed, api, "tensor at " + where(p) + " is not allocated (double FreeTensor, or never allocated)");
        m_allocated &= ~(1u << i);
        account_queue(QueueOp::free, slice(i), m_len, m_producer, m_consumer);
    }
    ASCENDOPT_TWIN_FN void push(const void* p, const char* api) {
        const int i = owned_slice(p, api, [this](int k) ASCENDOPT_TWIN_FN { return allocated(k) && !(m_enqueued & (1u << k)); });
        if (!(m_allocated & (1u << i)))
            fail(ErrorKind::run_failed, api, "tensor at " + where(p) + " was not allocated by AllocTensor on this queue");
        if (m_enqueued & (1u << i))
            fail(ErrorKind::run_failed, api, "tensor at " + where(p) + " is in the queue already (EnQue twice without a DeQue in between)");
        m_enqueued |= 1u << i;
        account_queue(QueueOp::enque, slice(i), m_len, m_producer, m_consumer);
        m_fifo[m_tail] = i;
        m_tail = (m_tail + 1) % k_max_queue_buffers;
        ++m_queued;
    }
    ASCENDOPT_TWIN_FN int pop(const char* api) {
        require_init(api);
        if (m_queued == 0)
            fail(ErrorKind::run_failed, api, "DeQue on an empty queue: no tensor was EnQue'd since the last DeQue");
        const int i = m_fifo[m_head];
        m_head = (m_head + 1) % k_max_queue_buffers;
        --m_queued;
        m_enqueued &= ~(1u << i);
        account_queue(QueueOp::deque, slice(i), m_len, m_producer, m_consumer);
        return i;
    }

private:
    ASCENDOPT_TWIN_FN void require_init(const char* api) const {
        if (!initialized()) fail(ErrorKind::run_failed, api, "queue used before TPipe::InitBuffer gave it memory");
    }
    ASCENDOPT_TWIN_FN uint32_t offset_of(const void* p) const { return uint32_t(static_cast<const uint8_t*>(p) - mem_base(m_mem)); }
    ASCENDOPT_TWIN_FN std::string where(const void* p) const { return std::string(mem_name(m_mem)) + " offset " + std::to_string(offset_of(p)); }
    ASCENDOPT_TWIN_FN bool allocated(int i) const { return m_allocated & (1u << i); }
    // The buffer of this set that starts at `p`. Zero-length buffers (InitBuffer(que, n, 0), which
    // the device accepts) all start at one offset: the first of them that `usable` accepts is
    // taken, as the device's queue handles would tell them apart.
    template <class Usable>
    ASCENDOPT_TWIN_FN int owned_slice(const void* p, const char* api, Usable usable) const {
        require_init(api);
        const uint32_t off = offset_of(p);
        if (m_len == 0 && off == m_base) {
            for (int k = 0; k < m_count; ++k)
                if (usable(k)) return k;
            return 0;
        }
        if (m_len > 0 && off >= m_base && off < m_base + uint32_t(m_count) * m_len && (off - m_base) % m_len == 0)
            return int((off - m_base) / m_len);
        fail(ErrorKind::run_failed, api,
             "tensor at " + where(p) + " does not start a buffer of this queue (" + mem_name(m_mem) + " " + std::to_string(m_base) +
                 ".." + std::to_string(m_base + uint32_t(m_count) * m_len) + ")");
    }

    Mem m_mem = Mem::UB;
    uint32_t m_base = 0;
    int m_count = 0;
    uint32_t m_len = 0;
    int m_producer = -1, m_consumer = -1;
    uint32_t m_allocated = 0;
    uint32_t m_enqueued = 0;  // buffers EnQue'd and not yet DeQue'd
    int m_next = 0;  // where the next AllocTensor starts looking
    int m_fifo[k_max_queue_buffers] = {};
    int m_head = 0, m_tail = 0, m_queued = 0;
};

// Hands out one memory's bytes in call order, from `start` up to `limit` (TPipe: the memory's
// whole window; TBufPool: its own region).
struct Arena {
    uint32_t start = 0;
    uint32_t used = 0;
    uint64_t limit = 0;
};

// Whether a TQue's third template argument (TQueConfig pointer or int bits) asks for a format
// conversion.
template <auto mask>
constexpr bool queue_converts_format() {
    if constexpr (std::is_pointer_v<decltype(mask)>) return mask != nullptr && (mask->nd2nz || mask->nz2nd);
    else return (static_cast<uint64_t>(mask) & 3u) != 0;
}

}  // namespace ascendopt_twin::detail

namespace AscendC {

enum class HardEvent : uint8_t {
    MTE2_MTE1, MTE1_MTE2, MTE1_M, M_MTE1, MTE2_V, V_MTE2, MTE3_V, V_MTE3, M_V, V_M, V_V, MTE3_MTE1,
    MTE1_MTE3, MTE1_V, MTE2_M, M_MTE2, V_MTE1, M_FIX, FIX_M, MTE3_MTE2, MTE2_MTE3, S_V, V_S, S_MTE2,
    MTE2_S, S_MTE3, MTE3_S, MTE2_FIX, FIX_MTE2, FIX_S, M_S, FIX_MTE3, MTE1_FIX, FIX_MTE1, FIX_FIX, MAX
};

class TPipe;
template <TPosition pos, uint32_t bufIDSize>
class TBufPool;

// A queue's configuration, the TQue template's third argument in its pointer form
// (`TQue<pos, depth, &config>`, config constexpr; the int form is bit 0 nd2nz, bit 1 nz2nd).
// The format conversions (nd2nz on A1/B1, nz2nd on CO2) are not modelled: a queue that asks for
// one does not compile. The other fields (buffer sizes for a static setup, consumers) change
// nothing on the twin, whose queues take their buffers from InitBuffer.
struct TQueConfig {
    bool nd2nz = false;
    bool nz2nd = false;
    bool scmBlockGroup = false;
    uint32_t bufferLen = 0;
    uint32_t bufferNumber = 0;
    uint32_t consumerSize = 0;
    TPosition consumer[8] = {};
};

template <TPosition pos, int32_t depth = 1, auto mask = 0>
class TQue {
public:
    static constexpr TPosition position = pos;
    static_assert(!ascendopt_twin::detail::queue_converts_format<mask>(),
                  "TQue: the nd2nz / nz2nd format conversion of a queue is not modelled by the twin");

    ASCENDOPT_TWIN_FN TQue() { m_buffers.set_pipes(ascendopt_twin::detail::position_producer(pos), ascendopt_twin::detail::position_consumer(pos)); }

    template <class T>
    ASCENDOPT_TWIN_FN LocalTensor<T> AllocTensor() {
        const int i = m_buffers.alloc("TQue::AllocTensor");
        return LocalTensor<T>(reinterpret_cast<T*>(m_buffers.slice(i)), m_buffers.len() / sizeof(T), m_buffers.len() / sizeof(T));
    }
    template <class T>
    ASCENDOPT_TWIN_FN bool EnQue(const LocalTensor<T>& tensor) {
        m_buffers.push(tensor.data(), "TQue::EnQue");
        return true;
    }
    // Without a type: takes the next buffer off the queue and hands back nothing (published
    // kernels drain a queue this way and keep reading the tensor they enqueued).
    ASCENDOPT_TWIN_FN void DeQue() { m_buffers.pop("TQue::DeQue"); }
    template <class T>
    ASCENDOPT_TWIN_FN LocalTensor<T> DeQue() {
        const int i = m_buffers.pop("TQue::DeQue");
        return LocalTensor<T>(reinterpret_cast<T*>(m_buffers.slice(i)), m_buffers.len() / sizeof(T), m_buffers.len() / sizeof(T));
    }
    // The forms that name the hand-off's logical source and destination positions (a TQueBind
    // of VECIN and VECOUT between a copy-in and a copy-out): on the device they choose the
    // stages the hand-off synchronizes; the twin's queue hand-off orders every stage alike.
    template <TPosition srcUserPos, TPosition dstUserPos, class T>
    ASCENDOPT_TWIN_FN bool EnQue(const LocalTensor<T>& tensor) {
        return EnQue(tensor);
    }
    template <TPosition srcUserPos, TPosition dstUserPos, class T>
    ASCENDOPT_TWIN_FN LocalTensor<T> DeQue() {
        return DeQue<T>();
    }
    template <class T>
    ASCENDOPT_TWIN_FN void FreeTensor(LocalTensor<T>& tensor) {
        m_buffers.release(tensor.data(), "TQue::FreeTensor");
    }
    ASCENDOPT_TWIN_FN bool VacantInQue() const { return m_buffers.queued() < m_buffers.count(); }
    ASCENDOPT_TWIN_FN bool HasTensorInQue() const { return m_buffers.queued() > 0; }
    ASCENDOPT_TWIN_FN int32_t GetTensorCountInQue() const { return m_buffers.queued(); }
    ASCENDOPT_TWIN_FN bool HasIdleBuffer() const { return m_buffers.has_idle(); }
    // Releases the hardware events the queue holds; the twin's queues hold none (their hand-offs
    // are the timing model's gates), so there is nothing to do.
    ASCENDOPT_TWIN_FN void FreeAllEvent() {}

    ASCENDOPT_TWIN_FN ascendopt_twin::detail::BufferSet& buffers() { return m_buffers; }

private:
    ascendopt_twin::detail::BufferSet m_buffers;
};

// A queue between two positions lives in the memory of the first that is on-chip.
template <TPosition src, TPosition dst, int32_t depth = 1, auto mask = 0>
class TQueBind : public TQue<(ascendopt_twin::detail::position_mem(src) >= 0 ? src : dst), depth, mask> {
public:
    // Filled by src's producer (a copy in when src is GM), used by dst's consumer.
    ASCENDOPT_TWIN_FN TQueBind() {
        this->buffers().set_pipes(ascendopt_twin::detail::position_producer(src), ascendopt_twin::detail::position_consumer(dst));
    }
};

template <TPosition pos = TPosition::VECCALC>
class TBuf {
public:
    static constexpr TPosition position = pos;

    template <class T>
    ASCENDOPT_TWIN_FN LocalTensor<T> Get() {
        require("TBuf::Get");
        return LocalTensor<T>(reinterpret_cast<T*>(m_buffers.slice(0)), m_buffers.len() / sizeof(T), m_buffers.len() / sizeof(T));
    }
    // A tensor of `count` elements at the buffer's start; its extent is still the whole buffer
    // (LocalTensor), so a count smaller than what the kernel then touches is no error. A count
    // larger than the buffer is not checked here, as on the device (inplace_attn_softmax asks a
    // buffer of halves for as many floats): the accesses past the buffer are, as any overrun
    // (a note, or an error under --strict-ub).
    template <class T>
    ASCENDOPT_TWIN_FN LocalTensor<T> Get(uint32_t count) {
        require("TBuf::Get");
        return LocalTensor<T>(reinterpret_cast<T*>(m_buffers.slice(0)), count, m_buffers.len() / sizeof(T));
    }
    // `count` elements from byte `offset` of the buffer (documented: offset a multiple of 32,
    // count * sizeof(T) + offset within the buffer's length).
    template <class T>
    ASCENDOPT_TWIN_FN LocalTensor<T> GetWithOffset(uint32_t count, uint32_t offset) {
        require("TBuf::GetWithOffset");
        if (offset % 32 != 0)
            ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, "TBuf::GetWithOffset",
                                 "bufOffset " + std::to_string(offset) + " is not a multiple of 32 bytes");
        if (uint64_t(count) * sizeof(T) + offset > m_buffers.len())
            ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, "TBuf::GetWithOffset",
                                 std::to_string(count) + " elements of " + std::to_string(sizeof(T)) + " bytes from byte " +
                                     std::to_string(offset) + " exceed the buffer's " + std::to_string(m_buffers.len()) + " bytes");
        return LocalTensor<T>(reinterpret_cast<T*>(m_buffers.slice(0) + offset), count, (m_buffers.len() - offset) / sizeof(T));
    }
    // A TBuf is no queue: AllocTensor is Get and FreeTensor has nothing to give back (the
    // Ascend C TBuf accepts both calls so that code written for queues compiles).
    template <class T>
    ASCENDOPT_TWIN_FN LocalTensor<T> AllocTensor() {
        return Get<T>();
    }
    template <class T>
    ASCENDOPT_TWIN_FN void FreeTensor(const LocalTensor<T>& tensor) {
        require("TBuf::FreeTensor");
        const uint64_t off = uint64_t(reinterpret_cast<const uint8_t*>(tensor.data()) - m_buffers.slice(0));
        if (off >= m_buffers.len())
            ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, "TBuf::FreeTensor",
                                 "the tensor is not in this TBuf; it is " + ascendopt_twin::describe_ub(tensor.data()));
    }
    ASCENDOPT_TWIN_FN ascendopt_twin::detail::BufferSet& buffers() { return m_buffers; }

private:
    ASCENDOPT_TWIN_FN void require(const char* api) const {
        if (!m_buffers.initialized())
            ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, api, "TBuf used before TPipe::InitBuffer");
    }
    ascendopt_twin::detail::BufferSet m_buffers;
};

}  // namespace AscendC

namespace ascendopt_twin::detail {

// Sets up the buffers of `que` (`num` of `len` bytes, each rounded up to 32 bytes) from `arena`
// of memory `mem`. On the device neither TPipe nor TBufPool checks the total against the
// memory's size; only a total beyond the window the twin models is refused.
template <class Q>
ASCENDOPT_TWIN_FN void init_buffers(Arena& arena, Mem mem, Q& que, uint32_t num, uint32_t len, const char* kind, const char* api) {
    if (num == 0 || num > uint32_t(k_max_queue_buffers))
        fail(ErrorKind::run_failed, api, "buffer count " + std::to_string(num) + " must be 1..16");
    const uint64_t bytes = uint64_t(num) * align32(len);
    const uint64_t total = uint64_t(arena.start) + arena.used + bytes;
    if (total > arena.limit)
        fail(ErrorKind::resource_exceeded, api,
             "InitBuffer(num=" + std::to_string(num) + ", len=" + std::to_string(len) + ") brings the " + mem_name(mem) +
                 " handed out to " + std::to_string(total) + " bytes, past the " + std::to_string(arena.limit) +
                 " bytes available here (the core's " + mem_name(mem) + " has " + std::to_string(mem_size(mem)) +
                 "); make the tiling choose smaller tiles or fewer buffers");
    const uint32_t base = arena.start + arena.used;
    arena.used += uint32_t(bytes);
    que.buffers().init(mem, base, int(num), align32(len), kind);
}

}  // namespace ascendopt_twin::detail

namespace AscendC {

class TPipe {
public:
    ASCENDOPT_TWIN_FN TPipe() {
        for (auto& a : m_arenas) a.limit = ascendopt_twin::k_mem_window_bytes;
        ascendopt_twin::set_current_pipe(this);
    }
    ASCENDOPT_TWIN_FN ~TPipe() {
        if (ascendopt_twin::current_pipe() == this) ascendopt_twin::set_current_pipe(nullptr);
    }
    TPipe(const TPipe&) = delete;
    TPipe& operator=(const TPipe&) = delete;

    template <class Q>
    ASCENDOPT_TWIN_FN bool InitBuffer(Q& que, uint8_t num, uint32_t len) {
        const auto mem = ascendopt_twin::detail::memory_of_position(Q::position, "TPipe::InitBuffer");
        ascendopt_twin::detail::init_buffers(m_arenas[size_t(mem)], mem, que, num, len, "TQue", "TPipe::InitBuffer");
        return true;
    }
    template <TPosition pos>
    ASCENDOPT_TWIN_FN bool InitBuffer(TBuf<pos>& buf, uint32_t len) {
        const auto mem = ascendopt_twin::detail::memory_of_position(pos, "TPipe::InitBuffer");
        ascendopt_twin::detail::init_buffers(m_arenas[size_t(mem)], mem, buf, 1, len, "TBuf", "TPipe::InitBuffer");
        return true;
    }
    // A TBufPool of `len` bytes (rounded up to 32) of the memory of its position.
    template <class P>
    ASCENDOPT_TWIN_FN bool InitBufPool(P& pool, uint32_t len) {
        const auto mem = ascendopt_twin::detail::memory_of_position(P::position, "TPipe::InitBufPool");
        auto& arena = m_arenas[size_t(mem)];
        const uint32_t bytes = ascendopt_twin::detail::align32(len);
        if (uint64_t(arena.start) + arena.used + bytes > arena.limit)
            ascendopt_twin::fail(ascendopt_twin::ErrorKind::resource_exceeded, "TPipe::InitBufPool",
                                 "a pool of " + std::to_string(len) + " bytes goes past the " + ascendopt_twin::mem_name(mem) +
                                     " the twin models");
        pool.assign(mem, arena.start + arena.used, bytes);
        arena.used += bytes;
        return true;
    }
    // A pool that shares the start and length of `share` (documented: of the same memory, and
    // no longer than it).
    template <class P, class U>
    ASCENDOPT_TWIN_FN bool InitBufPool(P& pool, uint32_t len, U& share) {
        pool.share_from(share, len, "TPipe::InitBufPool");
        return true;
    }
    // Reset and Destroy give back everything handed out; buffers set up again start over.
    ASCENDOPT_TWIN_FN void Reset() {
        for (auto& a : m_arenas) a.used = 0;
    }
    ASCENDOPT_TWIN_FN void Destroy() { Reset(); }
    // Init (re)initializes the pipe's memory and event ids and makes it the core's pipe
    // (GetTPipePtr). Documented: a pipe used again is Destroyed before Init. Init right after
    // construction is the documented first use; Init while buffers are still set up is an error.
    ASCENDOPT_TWIN_FN void Init() {
        for (size_t m = 0; m < ascendopt_twin::detail::k_mems; ++m)
            if (m_arenas[m].used != 0)
                ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, "TPipe::Init",
                                     std::to_string(m_arenas[m].used) + " bytes of " + ascendopt_twin::mem_name(ascendopt_twin::Mem(m)) +
                                         " are still set up: call Destroy before Init");
        ascendopt_twin::set_current_pipe(this);
    }
    // Event ids name hardware flags; the twin models flags by (pipes, id), and one id per event
    // kind is all the kernels here need, so every request gets id 0.
    template <HardEvent e>
    ASCENDOPT_TWIN_FN int32_t FetchEventID() { return 0; }
    ASCENDOPT_TWIN_FN int32_t FetchEventID(HardEvent) { return 0; }
    template <HardEvent e>
    ASCENDOPT_TWIN_FN int32_t AllocEventID() { return 0; }
    template <HardEvent e>
    ASCENDOPT_TWIN_FN void ReleaseEventID(int32_t) {}

    ASCENDOPT_TWIN_FN uint32_t used_bytes(ascendopt_twin::Mem mem = ascendopt_twin::Mem::UB) const { return m_arenas[size_t(mem)].used; }

private:
    ascendopt_twin::detail::Arena m_arenas[ascendopt_twin::detail::k_mems];
};

// A region of one memory that is divided further by its own InitBuffer / InitBufPool
// (documented: UB or L1 pools; pools of a pool; pools that share another's region so that
// stages without data in common reuse it). `bufIDSize` bounds the buffers set up in it.
template <TPosition pos, uint32_t bufIDSize = 4>
class TBufPool {
public:
    static constexpr TPosition position = pos;

    template <class Q>
    ASCENDOPT_TWIN_FN bool InitBuffer(Q& que, uint8_t num, uint32_t len) {
        require_same_memory(Q::position, "TBufPool::InitBuffer");
        count_buffer("TBufPool::InitBuffer");
        ascendopt_twin::detail::init_buffers(m_arena, m_mem, que, num, len, "TQue", "TBufPool::InitBuffer");
        return true;
    }
    template <TPosition p>
    ASCENDOPT_TWIN_FN bool InitBuffer(TBuf<p>& buf, uint32_t len) {
        require_same_memory(p, "TBufPool::InitBuffer");
        count_buffer("TBufPool::InitBuffer");
        ascendopt_twin::detail::init_buffers(m_arena, m_mem, buf, 1, len, "TBuf", "TBufPool::InitBuffer");
        return true;
    }
    template <class P>
    ASCENDOPT_TWIN_FN bool InitBufPool(P& pool, uint32_t len) {
        require_assigned("TBufPool::InitBufPool");
        require_same_memory(P::position, "TBufPool::InitBufPool");
        const uint32_t bytes = ascendopt_twin::detail::align32(len);
        if (uint64_t(m_arena.used) + bytes > m_arena.limit - m_arena.start)
            ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, "TBufPool::InitBufPool",
                                 "a pool of " + std::to_string(len) + " bytes does not fit in the " +
                                     std::to_string(m_arena.limit - m_arena.start - m_arena.used) + " bytes left in this pool");
        pool.assign(m_mem, m_arena.start + m_arena.used, bytes);
        m_arena.used += bytes;
        return true;
    }
    template <class P, class U>
    ASCENDOPT_TWIN_FN bool InitBufPool(P& pool, uint32_t len, U& share) {
        pool.share_from(share, len, "TBufPool::InitBufPool");
        return true;
    }
    // Switching pools: the buffers stay set up (their contents may be overwritten by the pool that
    // shares the region), so the twin has nothing to undo.
    ASCENDOPT_TWIN_FN void Reset() {}

    // Twin internals.
    ASCENDOPT_TWIN_FN void assign(ascendopt_twin::Mem mem, uint32_t base, uint32_t bytes) {
        m_mem = mem;
        m_arena = {base, 0, uint64_t(base) + bytes};
        m_assigned = true;
    }
    template <class U>
    ASCENDOPT_TWIN_FN void share_from(const U& other, uint32_t len, const char* api) {
        if (!other.assigned()) ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, api, "the pool to share is not set up yet");
        if (ascendopt_twin::detail::position_mem(U::position) != ascendopt_twin::detail::position_mem(pos))
            ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, api, "a pool can share only a pool of the same memory");
        if (ascendopt_twin::detail::align32(len) > other.bytes())
            ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, api,
                                 "length " + std::to_string(len) + " exceeds the shared pool's " + std::to_string(other.bytes()) + " bytes");
        assign(other.mem(), other.base(), ascendopt_twin::detail::align32(len));
    }
    ASCENDOPT_TWIN_FN bool assigned() const { return m_assigned; }
    ASCENDOPT_TWIN_FN ascendopt_twin::Mem mem() const { return m_mem; }
    ASCENDOPT_TWIN_FN uint32_t base() const { return m_arena.start; }
    ASCENDOPT_TWIN_FN uint32_t bytes() const { return uint32_t(m_arena.limit - m_arena.start); }

private:
    ASCENDOPT_TWIN_FN void require_assigned(const char* api) const {
        if (!m_assigned)
            ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, api, "TBufPool used before TPipe::InitBufPool gave it memory");
    }
    ASCENDOPT_TWIN_FN void require_same_memory(TPosition p, const char* api) const {
        require_assigned(api);
        if (ascendopt_twin::detail::memory_of_position(p, api) != m_mem)
            ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, api,
                                 std::string("a buffer at TPosition::") + ascendopt_twin::detail::position_name(p) + " cannot come from a pool of " +
                                     ascendopt_twin::mem_name(m_mem));
    }
    ASCENDOPT_TWIN_FN void count_buffer(const char* api) {
        if (++m_buffers > bufIDSize)
            ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, api,
                                 "more than bufIDSize = " + std::to_string(bufIDSize) + " buffers set up in this TBufPool");
    }
    ascendopt_twin::Mem m_mem = ascendopt_twin::Mem::UB;
    ascendopt_twin::detail::Arena m_arena;
    bool m_assigned = false;
    uint32_t m_buffers = 0;
};

ASCENDOPT_TWIN_FN inline TPipe* GetTPipePtr() { return static_cast<TPipe*>(ascendopt_twin::current_pipe()); }

}  // namespace AscendC

// CANN declares GetTPipePtr at global scope too; kernels call it unqualified from namespaces of
// their own.
using AscendC::GetTPipePtr;
