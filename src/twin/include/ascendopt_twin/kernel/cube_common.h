// What the cube APIs (cube_load.h, cube_mmad.h, cube_fixpipe.h) share: the fractal geometry
// of the 910B cube, the checks of where an operand lives, and GM access.
//
// Fractals (Ascend C docs, "矩阵计算分形介绍"): a fractal is 16 rows x C0 columns, C0 = 32 bytes
// / sizeof(T) (16 for half, 32 for int8, 8 for float), 512 bytes; in L0C it is 16 x 16 of
// float/int32, 1024 bytes. L0A holds A (M x K) as Zz (fractals row-major over (M/16, K/C0),
// rows inside a fractal), L0B holds B (K x N) as Zn (fractals row-major over (K/C0, N/16),
// columns inside a fractal: element (k, n) at n * C0 + k), L0C holds C (M x N) as Nz
// (fractals column-major over (M/16, N/16), rows inside), and L1 usually holds Nz.
#pragma once

#include "ascendopt_twin/attrs.h"

#include <initializer_list>
#include <string>

#include "ascendopt_twin/kernel/tensor.h"

namespace ascendopt_twin::cube {

constexpr uint32_t k_fractal_bytes = 512;  // one L0A/L0B/L1 fractal
constexpr uint32_t k_block_rows = 16;      // M0 = N0 = 16

template <class T>
constexpr uint32_t c0() {
    return 32 / sizeof(T);
}

ASCENDOPT_TWIN_FN inline uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

ASCENDOPT_TWIN_FN inline std::string num(uint64_t v) { return std::to_string(v); }

// "UB or L1" for error messages.
ASCENDOPT_TWIN_FN inline std::string mem_list(std::initializer_list<Mem> mems) {
    std::string s;
    size_t i = 0;
    for (Mem m : mems) {
        if (i > 0) s += i + 1 == mems.size() ? " or " : ", ";
        s += mem_name(m);
        ++i;
    }
    return s;
}

// Checks that the `which` operand of `api` lies in one of `allowed`, starts at a multiple of
// `align` bytes of its memory, and that `bytes` from its start stay inside its buffer (the
// tensor's extent) and its memory (check_ub_access). Returns its memory.
template <class T>
ASCENDOPT_TWIN_FN Mem require_local(const char* api, const char* which, const AscendC::LocalTensor<T>& t, std::initializer_list<Mem> allowed,
                                    uint32_t align, uint64_t bytes) {
    Mem m;
    uint64_t off = 0;
    if (!mem_of(t.data(), m, off))
        fail(ErrorKind::run_failed, api, std::string("the ") + which + " tensor is in no on-chip memory of this core");
    bool ok = false;
    for (Mem a : allowed) ok = ok || a == m;
    if (!ok)
        fail(ErrorKind::run_failed, api,
             std::string("the ") + which + " tensor is in " + mem_name(m) + ", but " + api + " takes it in " + mem_list(allowed));
    if (mem_size(m) == 0) check_ub_access(api, which, t.data(), bytes, uint64_t(t.extent()) * sizeof(T));  // names the core kind
    if (align > 1 && off % align != 0)
        fail(ErrorKind::run_failed, api,
             std::string("the ") + which + " tensor starts at " + mem_name(m) + " byte " + num(off) + ", which is not a multiple of " +
                 num(align) + " bytes as " + mem_name(m) + " operands of " + api + " must be");
    check_ub_access(api, which, t.data(), bytes, uint64_t(t.extent()) * sizeof(T));
    return m;
}

ASCENDOPT_TWIN_FN inline Mem mem_at(const void* p) {
    Mem m = Mem::UB;
    uint64_t off = 0;
    mem_of(p, m, off);
    return m;
}

// Host memory behind `bytes` of GM from element `first` of `t`.
template <class T>
ASCENDOPT_TWIN_FN uint8_t* gm_span(const AscendC::GlobalTensor<T>& t, uint64_t bytes, bool write, const char* api) {
    return gm_translate(t.address(), bytes == 0 ? 1 : bytes, write, api, t.origin());
}

}  // namespace ascendopt_twin::cube
