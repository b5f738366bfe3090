// The entry points of -fsanitize=kernel-address instrumentation, which the kernel build turns
// on (eval/toolchain.cpp): every memory access of the kernel's own code through a pointer calls
// one of them, and they hand it to the runtime (scalar_access, twin_rt.h). They live in the
// harness library, which only operator binaries link: a binary built with the real
// AddressSanitizer (the sanitized test build) must keep that runtime's definitions.
#include "twin_rt.h"

#define ASCENDOPT_SCALAR_ACCESS(N)                                                                        \
    extern "C" void __asan_load##N##_noabort(void* p) { ascendopt_twin::scalar_access(p, N, false); } \
    extern "C" void __asan_store##N##_noabort(void* p) { ascendopt_twin::scalar_access(p, N, true); }
ASCENDOPT_SCALAR_ACCESS(1)
ASCENDOPT_SCALAR_ACCESS(2)
ASCENDOPT_SCALAR_ACCESS(4)
ASCENDOPT_SCALAR_ACCESS(8)
ASCENDOPT_SCALAR_ACCESS(16)
#undef ASCENDOPT_SCALAR_ACCESS

extern "C" void __asan_loadN_noabort(void* p, size_t n) { ascendopt_twin::scalar_access(p, n, false); }
extern "C" void __asan_storeN_noabort(void* p, size_t n) { ascendopt_twin::scalar_access(p, n, true); }
// Called before functions that do not return (throw, abort); the real runtime unpoisons the
// stack there, and there is nothing to unpoison here.
extern "C" void __asan_handle_no_return() {}
// Bracket the dynamic initialisation of a kernel translation unit's globals (a namespace-scope
// std::vector in a tiling header): the real runtime checks initialisation order there, which
// means nothing for the twin.
extern "C" void __asan_before_dynamic_init(const char*) {}
extern "C" void __asan_after_dynamic_init() {}
