// Function attributes of the twin headers.
//
// ASCENDOPT_TWIN_FN marks every function of the twin's kernel-side headers. Kernel sources are
// compiled with -fsanitize-coverage=trace-pc so that the timing model can charge the scalar
// work of the kernel's own code (loops, index arithmetic, branches) by counting its basic
// blocks; the twin's implementation of the Ascend C API is inlined into the same translation
// unit but must not be charged that way (its cost comes from the per-instruction model), so it
// opts out of the instrumentation. ScalarWork.TwinCodeIsNotInstrumented (tests/e2e/test_profile.cpp) checks this.
#pragma once

#include "ascendopt_twin/raw_memory.h"

//
// Kernel code is also compiled with -fsanitize=kernel-address, which turns each of its memory
// accesses through a pointer into a call the runtime answers (rt/scalar_access.cpp): that is how
// a kernel's scalar reads and writes of GM through plain pointers are checked and charged, as
// the device allows them. The twin's own functions opt out of that too.
#if defined(__clang__)
#define ASCENDOPT_TWIN_FN __attribute__((no_sanitize("coverage", "address", "kernel-address")))
#elif defined(__GNUC__) && __GNUC__ >= 12
#define ASCENDOPT_TWIN_FN __attribute__((no_sanitize_coverage, no_sanitize_address))
#else
#define ASCENDOPT_TWIN_FN
#endif
