// Function attributes of the twin headers.
//
// ASCENDOPT_TWIN_FN marks every function of the twin's kernel-side headers. Kernel sources are
// compiled with -fsanitize-coverage=trace-pc so that the timing model can charge the scalar
// work of the kernel's own code (loops, index arithmetic, branches) by counting its basic
// blocks; the twin's implementation of the Ascend C API is inlined into the same translation
// unit but must not be charged that way (its cost comes from the per-instruction model), so it
// opts out of the instrumentation. tests/unit/test_scalar_instrumentation.cpp checks this.
#pragma once

#if defined(__clang__)
#define ASCENDOPT_TWIN_FN __attribute__((no_sanitize("coverage")))
#elif defined(__GNUC__) && __GNUC__ >= 12
#define ASCENDOPT_TWIN_FN __attribute__((no_sanitize_coverage))
#else
#define ASCENDOPT_TWIN_FN
#endif
