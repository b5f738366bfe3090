// TPipe, TQue and TBuf: allocation of the Unified Buffer and the queues that hand tensors
// from one pipe to the next. The twin enforces what the hardware cannot forgive: total UB
// per core (resource_exceeded), AllocTensor with every buffer taken, EnQue/FreeTensor of a
// tensor that does not belong to the queue, DeQue of an empty queue (run_failed).
#pragma once

#include "ascendopt_twin/attrs.h"

#include <string>

#include "ascendopt_twin/kernel/tensor.h"

namespace ascendopt_twin::detail {

constexpr int k_max_queue_buffers = 16;

ASCENDOPT_TWIN_FN inline uint32_t align32(uint64_t bytes) { return static_cast<uint32_t>((bytes + 31u) & ~uint64_t(31)); }

// Buffers of one queue or TBuf: `count` slices of `len` bytes starting at UB offset `base`.
class BufferSet {
public:
    ASCENDOPT_TWIN_FN void init(uint32_t base, int count, uint32_t len, const char* kind) {
        m_base = base;
        m_count = count;
        m_len = len;
        m_allocated = 0;
        m_enqueued = 0;
        m_next = 0;
        m_head = m_tail = m_queued = 0;
        account_ub_slots(slice(0), uint32_t(count), len, kind);
    }
    ASCENDOPT_TWIN_FN bool initialized() const { return m_count > 0; }
    ASCENDOPT_TWIN_FN uint32_t len() const { return m_len; }
    ASCENDOPT_TWIN_FN uint8_t* slice(int i) const { return ub_base() + m_base + uint32_t(i) * m_len; }

    ASCENDOPT_TWIN_FN int alloc(const char* api) {
        require_init(api);
        // Round robin, as the hardware queue does: buffers alternate (ping-pong), so a freed
        // buffer is not reused while another has been free for longer.
        for (int k = 0; k < m_count; ++k) {
            const int i = (m_next + k) % m_count;
            if (!(m_allocated & (1u << i))) {
                m_allocated |= 1u << i;
                m_next = (i + 1) % m_count;
                account_queue(QueueOp::alloc, slice(i));
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
            fail(ErrorKind::run_failed, api, "tensor at UB offset " + std::to_string(offset_of(p)) +
                                                 " is not allocated (double FreeTensor, or never allocated)");
        m_allocated &= ~(1u << i);
        account_queue(QueueOp::free, slice(i));
    }
    ASCENDOPT_TWIN_FN void push(const void* p, const char* api) {
        const int i = owned_slice(p, api, [this](int k) ASCENDOPT_TWIN_FN { return allocated(k) && !(m_enqueued & (1u << k)); });
        if (!(m_allocated & (1u << i)))
            fail(ErrorKind::run_failed, api, "tensor at UB offset " + std::to_string(offset_of(p)) +
                                                 " was not allocated by AllocTensor on this queue");
        if (m_enqueued & (1u << i))
            fail(ErrorKind::run_failed, api, "tensor at UB offset " + std::to_string(offset_of(p)) +
                                                 " is in the queue already (EnQue twice without a DeQue in between)");
        m_enqueued |= 1u << i;
        account_queue(QueueOp::enque, slice(i));
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
        account_queue(QueueOp::deque, slice(i));
        return i;
    }

private:
    ASCENDOPT_TWIN_FN void require_init(const char* api) const {
        if (!initialized()) fail(ErrorKind::run_failed, api, "queue used before TPipe::InitBuffer gave it memory");
    }
    ASCENDOPT_TWIN_FN uint32_t offset_of(const void* p) const { return uint32_t(static_cast<const uint8_t*>(p) - ub_base()); }
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
             "tensor at UB offset " + std::to_string(off) + " does not start a buffer of this queue (UB " +
                 std::to_string(m_base) + ".." + std::to_string(m_base + uint32_t(m_count) * m_len) + ")");
    }

    uint32_t m_base = 0;
    int m_count = 0;
    uint32_t m_len = 0;
    uint32_t m_allocated = 0;
    uint32_t m_enqueued = 0;  // buffers EnQue'd and not yet DeQue'd
    int m_next = 0;  // where the next AllocTensor starts looking
    int m_fifo[k_max_queue_buffers] = {};
    int m_head = 0, m_tail = 0, m_queued = 0;
};

}  // namespace ascendopt_twin::detail

namespace AscendC {

enum class HardEvent : uint8_t {
    MTE2_MTE1, MTE1_MTE2, MTE1_M, M_MTE1, MTE2_V, V_MTE2, MTE3_V, V_MTE3, M_V, V_M, V_V, MTE3_MTE1,
    MTE1_MTE3, MTE1_V, MTE2_M, M_MTE2, V_MTE1, M_FIX, FIX_M, MTE3_MTE2, MTE2_MTE3, S_V, V_S, S_MTE2,
    MTE2_S, S_MTE3, MTE3_S, MTE2_FIX, FIX_MTE2, FIX_S, M_S, FIX_MTE3, MAX
};

class TPipe;

template <TPosition pos, int32_t depth = 1>
class TQue {
public:
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
    template <class T>
    ASCENDOPT_TWIN_FN LocalTensor<T> DeQue() {
        const int i = m_buffers.pop("TQue::DeQue");
        return LocalTensor<T>(reinterpret_cast<T*>(m_buffers.slice(i)), m_buffers.len() / sizeof(T), m_buffers.len() / sizeof(T));
    }
    template <class T>
    ASCENDOPT_TWIN_FN void FreeTensor(LocalTensor<T>& tensor) {
        m_buffers.release(tensor.data(), "TQue::FreeTensor");
    }
    ASCENDOPT_TWIN_FN bool VacantInQue() const { return true; }

    ASCENDOPT_TWIN_FN ascendopt_twin::detail::BufferSet& buffers() { return m_buffers; }

private:
    ascendopt_twin::detail::BufferSet m_buffers;
};

template <TPosition src, TPosition dst, int32_t depth = 1>
class TQueBind : public TQue<src, depth> {};

template <TPosition pos = TPosition::VECCALC>
class TBuf {
public:
    template <class T>
    ASCENDOPT_TWIN_FN LocalTensor<T> Get() {
        require("TBuf::Get");
        return LocalTensor<T>(reinterpret_cast<T*>(m_buffers.slice(0)), m_buffers.len() / sizeof(T), m_buffers.len() / sizeof(T));
    }
    // A tensor of `count` elements at the buffer's start; its extent is still the whole buffer
    // (LocalTensor), so a count smaller than what the kernel then touches is no error.
    template <class T>
    ASCENDOPT_TWIN_FN LocalTensor<T> Get(uint32_t count) {
        require("TBuf::Get");
        if (uint64_t(count) * sizeof(T) > m_buffers.len())
            ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, "TBuf::Get",
                                 std::to_string(count) + " elements of " + std::to_string(sizeof(T)) +
                                     " bytes exceed the buffer's " + std::to_string(m_buffers.len()) + " bytes");
        return LocalTensor<T>(reinterpret_cast<T*>(m_buffers.slice(0)), count, m_buffers.len() / sizeof(T));
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

class TPipe {
public:
    ASCENDOPT_TWIN_FN TPipe() { ascendopt_twin::set_current_pipe(this); }
    ASCENDOPT_TWIN_FN ~TPipe() {
        if (ascendopt_twin::current_pipe() == this) ascendopt_twin::set_current_pipe(nullptr);
    }
    TPipe(const TPipe&) = delete;
    TPipe& operator=(const TPipe&) = delete;

    template <class Q>
    ASCENDOPT_TWIN_FN bool InitBuffer(Q& que, uint8_t num, uint32_t len) {
        if (num == 0 || num > ascendopt_twin::detail::k_max_queue_buffers)
            ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, "TPipe::InitBuffer",
                                 "buffer count " + std::to_string(num) + " must be 1..16");
        que.buffers().init(reserve(uint64_t(num) * ascendopt_twin::detail::align32(len), num, len), num,
                           ascendopt_twin::detail::align32(len), "TQue");
        return true;
    }
    template <TPosition pos>
    ASCENDOPT_TWIN_FN bool InitBuffer(TBuf<pos>& buf, uint32_t len) {
        buf.buffers().init(reserve(ascendopt_twin::detail::align32(len), 1, len), 1, ascendopt_twin::detail::align32(len), "TBuf");
        return true;
    }
    ASCENDOPT_TWIN_FN void Reset() { m_used = 0; }
    // Event ids name hardware flags; the twin models flags by (pipes, id), and one id per event
    // kind is all the kernels here need, so every request gets id 0.
    template <HardEvent e>
    ASCENDOPT_TWIN_FN int32_t FetchEventID() { return 0; }
    ASCENDOPT_TWIN_FN int32_t FetchEventID(HardEvent) { return 0; }
    template <HardEvent e>
    ASCENDOPT_TWIN_FN int32_t AllocEventID() { return 0; }
    template <HardEvent e>
    ASCENDOPT_TWIN_FN void ReleaseEventID(int32_t) {}

    ASCENDOPT_TWIN_FN uint32_t used_bytes() const { return m_used; }

private:
    // Hands out the next `bytes` of UB, as the device does: without checking them against the
    // UB's size (buffers past its end fault when used, docs/twin.md). Only a total beyond the
    // UB offsets the twin models at all is refused.
    ASCENDOPT_TWIN_FN uint32_t reserve(uint64_t bytes, int num, uint32_t len) {
        const uint64_t total = uint64_t(m_used) + bytes;
        if (total > ascendopt_twin::ub_window())
            ascendopt_twin::fail(ascendopt_twin::ErrorKind::resource_exceeded, "TPipe::InitBuffer",
                                 "InitBuffer(num=" + std::to_string(num) + ", len=" + std::to_string(len) + ") brings the UB handed out to " +
                                     std::to_string(total) + " bytes, far past the core's " + std::to_string(ascendopt_twin::ub_size()) +
                                     "; make the tiling choose smaller tiles or fewer buffers");
        const uint32_t base = m_used;
        m_used = static_cast<uint32_t>(total);
        return base;
    }
    uint32_t m_used = 0;
};

ASCENDOPT_TWIN_FN inline TPipe* GetTPipePtr() { return static_cast<TPipe*>(ascendopt_twin::current_pipe()); }

}  // namespace AscendC

// CANN declares GetTPipePtr at global scope too; kernels call it unqualified from namespaces of
// their own.
using AscendC::GetTPipePtr;
