// Writes to GM with the core's atomic mode, and the launch's system workspace: the part of the
// twin runtime that GM-writing APIs (DataCopy UB->GM, Fixpipe) and the workspace APIs use.
// Like runtime.h, every function acts on the calling thread's core.
#pragma once

#include <cstdint>

namespace ascendopt_twin {

// The atomic mode of the current core (SetAtomicAdd<T>, SetAtomicMax<T>, SetAtomicMin<T>,
// SetAtomicNone): what a write to GM does with the bytes already there.
enum class AtomicOp : uint8_t { none, add, max, min };
// The element type the atomic operation works in.
enum class AtomicType : uint8_t { f32, f16, bf16, i32, i16, i8 };
void set_atomic(AtomicOp op, AtomicType type);
void set_atomic_type(AtomicType type);
AtomicOp atomic_op();

// Writes `bytes` from `src` to GM at `device_addr` for `api`: a plain copy, or with the atomic
// mode an element-wise read-modify-write in the atomic type, atomic across cores. The range is
// checked like gm_translate's (with `origin`); an atomic write whose length is not whole
// elements is run_failed.
void gm_write(uint64_t device_addr, const void* src, uint64_t bytes, const char* api, uint64_t origin = 0);

// The system workspace of the current launch (the workspace argument, unless the kernel set
// another with SetSysWorkspace).
uint8_t* sys_workspace();
void set_sys_workspace(uint8_t* workspace);            // this core
void set_launch_sys_workspace(uint8_t* workspace);     // every core of the next launch (the harness)

}  // namespace ascendopt_twin
