// GM writes with the atomic mode, and the system workspace (ascendopt_twin/runtime_gm.h).
#include <atomic>
#include <cstring>
#include <mutex>

#include "ascendopt_twin/fp16.h"
#include "ascendopt_twin/runtime.h"
#include "ascendopt_twin/runtime_gm.h"

namespace ascendopt_twin {
namespace {

struct AtomicState {
    AtomicOp op = AtomicOp::none;
    AtomicType type = AtomicType::f32;
};
thread_local AtomicState t_atomic;  // each block runs on a thread of its own

std::mutex g_atomic_mutex;  // atomic writes of every core, one at a time
std::atomic<uint8_t*> g_launch_workspace{nullptr};
thread_local uint8_t* t_workspace = nullptr;

size_t type_bytes(AtomicType t) {
    switch (t) {
        case AtomicType::f32: case AtomicType::i32: return 4;
        case AtomicType::f16: case AtomicType::bf16: case AtomicType::i16: return 2;
        default: return 1;
    }
}

template <class T>
T combine(AtomicOp op, T old, T v) {
    switch (op) {
        case AtomicOp::add: return static_cast<T>(old + v);
        case AtomicOp::max: return v > old ? v : old;
        case AtomicOp::min: return v < old ? v : old;
        default: return v;
    }
}

// 16-bit floats combine in float and round once, as the store of any 16-bit result does.
template <class T, class C>
void combine_all(AtomicOp op, uint8_t* dst, const uint8_t* src, uint64_t n) {
    for (uint64_t i = 0; i < n; ++i) {
        T a, b;
        std::memcpy(&a, dst + i * sizeof(T), sizeof(T));
        std::memcpy(&b, src + i * sizeof(T), sizeof(T));
        const T r = static_cast<T>(combine<C>(op, static_cast<C>(a), static_cast<C>(b)));
        std::memcpy(dst + i * sizeof(T), &r, sizeof(T));
    }
}

}  // namespace

void set_atomic(AtomicOp op, AtomicType type) {
    t_atomic.op = op;
    t_atomic.type = type;
}
void set_atomic_type(AtomicType type) { t_atomic.type = type; }
AtomicOp atomic_op() { return t_atomic.op; }

void gm_write(uint64_t device_addr, const void* src, uint64_t bytes, const char* api, uint64_t origin) {
    uint8_t* dst = gm_translate(device_addr, bytes, true, api, origin);
    const AtomicState a = t_atomic;
    if (a.op == AtomicOp::none) {
        std::memcpy(dst, src, bytes);
        return;
    }
    const size_t elem = type_bytes(a.type);
    if (bytes % elem != 0)
        fail(ErrorKind::run_failed, api,
             "an atomic write of " + std::to_string(bytes) + " bytes is not a whole number of " + std::to_string(elem) + "-byte elements");
    const auto* s = static_cast<const uint8_t*>(src);
    const uint64_t n = bytes / elem;
    std::lock_guard<std::mutex> lock(g_atomic_mutex);
    switch (a.type) {
        case AtomicType::f32: combine_all<float, float>(a.op, dst, s, n); break;
        case AtomicType::f16: combine_all<Half, float>(a.op, dst, s, n); break;
        case AtomicType::bf16: combine_all<BFloat16, float>(a.op, dst, s, n); break;
        case AtomicType::i32: combine_all<int32_t, int64_t>(a.op, dst, s, n); break;
        case AtomicType::i16: combine_all<int16_t, int32_t>(a.op, dst, s, n); break;
        case AtomicType::i8: combine_all<int8_t, int32_t>(a.op, dst, s, n); break;
    }
}

uint8_t* sys_workspace() { return t_workspace ? t_workspace : g_launch_workspace.load(); }
void set_sys_workspace(uint8_t* workspace) { t_workspace = workspace; }
void set_launch_sys_workspace(uint8_t* workspace) { g_launch_workspace.store(workspace); }

}  // namespace ascendopt_twin
