// What a kernel's own code may write, and the C library's memory functions as a kernel sees them.
//
// Kernel code is compiled with every memory access it makes through a pointer turned into a call
// of scalar_access (core.cpp). There, writes are confined: besides its GM tensors and on-chip
// buffers (checked and charged there), a block may write only its own stack (a
// separate one per block, launch.cpp) and the candidate objects' own statics
// (the linker gathers them in one section, eval/builder.cpp), and read besides only read-only
// memory (kernel_may_read). The twin's memory (its SoC
// description, timelines, results) and the host heap are out of reach. docs/sandbox.md gives the
// design and what it still leaves open.
#pragma once

#include <cstdarg>
#include <cstddef>
#include <cstdint>

namespace ascendopt_twin {

// [low, high) is the stack the calling thread's kernel code runs on (launch.cpp gives each block
// one of its own, apart from the trusted frames that launched it); nullptrs: none.
void own_stack(const void* low, const void* high);
// The calling thread's kernel stack as own_stack set it; false when it has none.
bool kernel_stack(uintptr_t& low, uintptr_t& high);

// Whether kernel code may write [addr, addr + bytes) outside GM and on-chip memory: its stack
// and the candidate objects' statics.
bool kernel_may_write(uint64_t addr, uint64_t bytes);
// Whether it may read there: what it may write, and read-only memory (code, constants). Reads
// are confined too because the instrumentation reports a read followed by a write of the same
// bytes (`p[0] += 1`) as the read alone: a read of writable memory that is not the kernel's is
// where such a write would begin.
bool kernel_may_read(uint64_t addr, uint64_t bytes);

}  // namespace ascendopt_twin

// The names a kernel build gives memcpy, memmove, memset and strlen in candidate objects
// (objcopy --redefine-sym): each byte is checked and charged as the kernel's own scalar access,
// in the widest aligned pieces of up to 8 bytes a scalar unit could move.
extern "C" {
void* ascendopt_guard_memcpy(void* dst, const void* src, size_t bytes);
void* ascendopt_guard_memmove(void* dst, const void* src, size_t bytes);
void* ascendopt_guard_memset(void* dst, int byte, size_t bytes);
size_t ascendopt_guard_strlen(const char* s);
// The printf family into a buffer (a kernel build includes host tiling headers whose inline
// code formats strings): the result is copied in through ascendopt_guard_memcpy.
int ascendopt_guard_snprintf(char* dst, size_t bytes, const char* format, ...);
int ascendopt_guard_vsnprintf(char* dst, size_t bytes, const char* format, va_list args);
int ascendopt_guard_sprintf(char* dst, const char* format, ...);
int ascendopt_guard_vsprintf(char* dst, const char* format, va_list args);
// What host objects' `syscall` becomes: the thread and process ids, nothing else (ENOSYS).
long ascendopt_guard_syscall(long number, ...);
// What host objects' `prctl` becomes: naming the thread (PR_SET_NAME, PR_GET_NAME), nothing else.
int ascendopt_guard_prctl(int option, ...);
}
