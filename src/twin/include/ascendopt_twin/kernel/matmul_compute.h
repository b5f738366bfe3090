// The cube work of a Matmul object (matmul.h), as the AIC does it: one baseM x baseN block of
// C at a time, over singleCoreK in baseK slices. Per slice the A tile (bm x bk) and the B tile
// (bk x bn) are gathered from their source (GM or an on-chip tensor; ND or NZ; transposed or
// not) straight into L0A (Zz) and L0B (Zn), charged as the two moves the device makes (MTE2:
// GM -> L1 with ND -> NZ; MTE1: L1 -> L0A / L0B; L1 holds no copy in the twin); the first slice
// brings the bias row into the bias table (MTE2 + MTE1); the twin's Mmad (cube_mmad.h) does the
// arithmetic into L0C, starting from zero or the bias and accumulating over the slices. The
// finished block is then kept aside (the client's `block`, row-major accumulator values) until
// it is written out: to GM with the C type's conversion (FIX, with the requested atomic mode)
// or, for a client's UB tensor, through GM (FIX on the AIC, MTE2 on the AIV).
#pragma once

#include "ascendopt_twin/attrs.h"

#include <algorithm>
#include <string>
#include <type_traits>

#include "ascendopt_twin/kernel/atomic.h"
#include "ascendopt_twin/kernel/cube_fixpipe.h"
#include "ascendopt_twin/kernel/cube_load.h"
#include "ascendopt_twin/kernel/cube_mmad.h"
#include "ascendopt_twin/kernel/matmul_config.h"
#include "ascendopt_twin/runtime_gm.h"

namespace ascendopt_twin::mm {

using cube::ceil_div;
using cube::num;

ASCENDOPT_TWIN_FN inline uint64_t align_up(uint64_t v, uint64_t a) { return ceil_div(v, a) * a; }

// Where an operand's data is: a GM address, or host memory of an on-chip tensor (an AIV's UB,
// an AIC's L1), with the stored matrix's row count and row length (elements) and its layout.
struct Source {
    bool set = false;
    bool gm = true;
    uint64_t addr = 0;  // GM device address, or host address of the on-chip tensor
    bool trans = false;
    bool nz = false;
    uint64_t rows = 0;  // of the stored matrix (NZ: padded to 16 in memory)
    uint64_t ld = 0;    // ND: elements per stored row
    bool in_l1 = false;  // an L1 tile the user's CopyA1 / CopyB1 callback filled: no MTE2 to charge
};

// The element offset of stored element (r, c): ND rows ld apart; NZ columns in C0-wide blocks
// of align16(rows) x C0 elements (cube_common.h), for a type of C0 `c0`.
ASCENDOPT_TWIN_FN inline uint64_t stored_offset(const Source& s, uint64_t r, uint64_t c, uint64_t c0) {
    if (!s.nz) return r * s.ld + c;
    return (c / c0) * align_up(s.rows, 16) * c0 + r * c0 + c % c0;
}

// Host memory behind the stored rows [r0, r1) and columns [c0_, c1) of `s` (reads), checked
// like any GM access of `api`.
template <class T>
ASCENDOPT_TWIN_FN const T* source_span(const Source& s, uint64_t r0, uint64_t r1, uint64_t col0, uint64_t col1, const char* api) {
    constexpr uint64_t c0 = cube::c0<T>();
    const uint64_t lo = stored_offset(s, r0, col0, c0), hi = stored_offset(s, r1 - 1, col1 - 1, c0) + 1;
    if (!s.gm) return reinterpret_cast<const T*>(s.addr);
    const uint8_t* p = gm_translate(s.addr + lo * sizeof(T), (hi - lo) * sizeof(T), false, api);
    return reinterpret_cast<const T*>(p) - lo;  // indexed by stored_offset from the tensor's start
}

// Logical element (i, j) of the operand: the stored (i, j), or (j, i) when transposed.
template <class T>
ASCENDOPT_TWIN_FN T operand_at(const Source& s, const T* base, uint64_t i, uint64_t j) {
    constexpr uint64_t c0 = cube::c0<T>();
    return s.trans ? base[stored_offset(s, j, i, c0)] : base[stored_offset(s, i, j, c0)];
}

template <class T>
ASCENDOPT_TWIN_FN const T* logical_span(const Source& s, uint64_t i0, uint64_t i1, uint64_t j0, uint64_t j1, const char* api) {
    return s.trans ? source_span<T>(s, j0, j1, i0, i1, api) : source_span<T>(s, i0, i1, j0, j1, api);
}

// The AIC memories one Matmul object computes in (carved by the object from TBufs of its pipe).
struct CubeBuffers {
    uint8_t* l1 = nullptr;
    uint8_t* l0a = nullptr;
    uint8_t* l0b = nullptr;
    uint8_t* l0c = nullptr;
    uint8_t* bt = nullptr;
    uint64_t l0a_bytes = 0, l0b_bytes = 0, l0c_bytes = 0, bt_bytes = 0;
};

// What one block computation needs from the object.
struct BlockJob {
    Source a, b, bias;
    bool bias_on = false;
    bool hf32 = false;
    uint64_t m0 = 0, n0 = 0;     // the block's first row and column in the single-core C
    uint64_t bm = 0, bn = 0;     // the block's valid rows and columns
    uint64_t k = 0, base_k = 0;  // singleCoreK and baseK
    uint64_t a_row0 = 0, b_col0 = 0;  // the single-core slice's offsets in A's rows and B's columns
};

// A bias element in the accumulator type (int32 stays exact).
template <class TAcc, class TBias>
ASCENDOPT_TWIN_FN TAcc to_acc(TBias v) {
    if constexpr (std::is_integral_v<TAcc>) return TAcc(v);
    else return TAcc(float(v));
}

// L0A / L0B / L0C / BT bytes a block of base sizes needs for these types.
template <class TA, class TB, class TAcc>
ASCENDOPT_TWIN_FN void buffer_bytes(uint64_t baseM, uint64_t baseN, uint64_t baseK, uint64_t& l0a, uint64_t& l0b, uint64_t& l0c,
                                    uint64_t& bt) {
    l0a = align_up(baseM, 16) * align_up(baseK, cube::c0<TA>()) * sizeof(TA);
    l0b = align_up(baseK, cube::c0<TB>()) * align_up(baseN, 16) * sizeof(TB);
    l0c = align_up(baseM, 16) * align_up(baseN, 16) * sizeof(TAcc);
    bt = align_up(baseN, 16) * sizeof(TAcc);
}

// Zeros `n` elements. (The twin's code avoids std:: algorithms and containers in element loops:
// kernel code is coverage-instrumented, and their basic blocks would be charged as the kernel's
// scalar work; see attrs.h.)
template <class T>
ASCENDOPT_TWIN_FN void zero(T* p, uint64_t n) {
    for (uint64_t i = 0; i < n; ++i) p[i] = T(0);
}

// Computes one block into `out` (bm x bn elements, row-major, accumulator type) on the calling AIC.
template <class TA, class TB, class TAcc, class TBias>
ASCENDOPT_TWIN_FN void compute_block(const BlockJob& job, const CubeBuffers& buf, TAcc* out, const char* api) {
    using namespace AscendC;
    require_core(CoreKind::aic, api);
    constexpr uint64_t ca = cube::c0<TA>(), cb = cube::c0<TB>();
    if (job.bm > 4095 || job.bn > 4095 || job.base_k > 4095)
        fail(ErrorKind::run_failed, api, "base block " + num(job.bm) + " x " + num(job.bn) + " x " + num(job.base_k) + ": each must be 1..4095 (Mmad)");
    const uint64_t m1 = ceil_div(job.bm, 16), n1 = ceil_div(job.bn, 16);
    uint64_t need_a, need_b, need_c, need_bt;
    buffer_bytes<TA, TB, TAcc>(job.bm, job.bn, job.base_k, need_a, need_b, need_c, need_bt);
    if (need_a > buf.l0a_bytes || need_b > buf.l0b_bytes || need_c > buf.l0c_bytes || (job.bias_on && need_bt > buf.bt_bytes))
        fail(ErrorKind::run_failed, api,
             "a " + num(job.bm) + " x " + num(job.bn) + " x " + num(job.base_k) + " block needs " + num(need_a) + " bytes of L0A, " + num(need_b) +
                 " of L0B, " + num(need_c) + " of L0C" + (job.bias_on ? " and " + num(need_bt) + " of BT" : std::string()) +
                 ", more than the object set aside for the tiling's base block (" + num(buf.l0a_bytes) + ", " + num(buf.l0b_bytes) + ", " +
                 num(buf.l0c_bytes) + ", " + num(buf.bt_bytes) + ")");
    LocalTensor<TAcc> l0c(reinterpret_cast<TAcc*>(buf.l0c), uint32_t(buf.l0c_bytes / sizeof(TAcc)));
    CubeState& st = cube_state();
    const bool saved_hf32 = st.hf32;
    st.hf32 = job.hf32;
    for (uint64_t k0 = 0; k0 < job.k; k0 += job.base_k) {
        const uint64_t bk = std::min(job.base_k, job.k - k0);
        const uint64_t ka1 = ceil_div(bk, ca), kb1 = ceil_div(bk, cb);
        // A tile -> L0A (Zz), zeros in the padding.
        auto* a = reinterpret_cast<TA*>(buf.l0a);
        zero(a, m1 * 16 * ka1 * ca);
        const TA* as = logical_span<TA>(job.a, job.a_row0 + job.m0, job.a_row0 + job.m0 + job.bm, k0, k0 + bk, api);
        for (uint64_t i = 0; i < job.bm; ++i)
            for (uint64_t x = 0; x < bk; ++x) a[cube::zz(i, x, ca, ka1)] = operand_at(job.a, as, job.a_row0 + job.m0 + i, k0 + x);
        const uint64_t a_bytes = m1 * 16 * ka1 * ca * sizeof(TA);
        order_internal_steps();  // the library orders its own steps
        if (!job.a.in_l1) account_copy(PipeId::MTE2, "Matmul:CopyIn(A)", job.bm * align_up(bk * sizeof(TA), 32), uint32_t(job.bm), buf.l1);
        order_internal_steps();  // the library orders its own steps
        account_cube(PipeId::MTE1, "Matmul:LoadData(A)", cube::mte1_cycles(Mem::L0A, a_bytes), a_bytes, {buf.l0a, buf.l1});
        // B tile -> L0B (Zn).
        auto* b = reinterpret_cast<TB*>(buf.l0b);
        zero(b, kb1 * cb * n1 * 16);
        const TB* bs = logical_span<TB>(job.b, k0, k0 + bk, job.b_col0 + job.n0, job.b_col0 + job.n0 + job.bn, api);
        for (uint64_t x = 0; x < bk; ++x)
            for (uint64_t j = 0; j < job.bn; ++j) b[cube::zn(x, j, cb, n1)] = operand_at(job.b, bs, k0 + x, job.b_col0 + job.n0 + j);
        const uint64_t b_bytes = kb1 * cb * n1 * 16 * sizeof(TB);
        order_internal_steps();  // the library orders its own steps
        if (!job.b.in_l1) account_copy(PipeId::MTE2, "Matmul:CopyIn(B)", bk * align_up(job.bn * sizeof(TB), 32), uint32_t(bk), buf.l1);
        order_internal_steps();  // the library orders its own steps
        account_cube(PipeId::MTE1, "Matmul:LoadData(B)", cube::mte1_cycles(Mem::L0B, b_bytes), b_bytes, {buf.l0b, buf.l1});
        LocalTensor<TA> l0a(a, uint32_t(buf.l0a_bytes / sizeof(TA)));
        LocalTensor<TB> l0b(b, uint32_t(buf.l0b_bytes / sizeof(TB)));
        MmadParams p;
        // A block of one row: Mmad with m == 1 is GEMV (A read as a plain row), but the tile
        // above is Zz with M padded to 16 (documented for M = 1 without CubeFormat::VECTOR),
        // so the cube computes the padded 16 rows; only row 0 is read back.
        p.m = uint16_t(job.bm == 1 ? 16 : job.bm);
        p.n = uint16_t(job.bn);
        p.k = uint16_t(bk);
        if (k0 == 0 && job.bias_on) {
            // The bias row (N elements of the block) -> L1 -> BT, in the accumulator type.
            auto* bt = reinterpret_cast<TAcc*>(buf.bt);
            const TBias* bias = source_span<TBias>(job.bias, 0, 1, job.b_col0 + job.n0, job.b_col0 + job.n0 + job.bn, api);
            for (uint64_t j = 0; j < job.bn; ++j) bt[j] = to_acc<TAcc>(bias[job.b_col0 + job.n0 + j]);
            order_internal_steps();  // the library orders its own steps
            account_copy(PipeId::MTE2, "Matmul:CopyIn(bias)", align_up(job.bn * sizeof(TBias), 32), 1, buf.l1);
            order_internal_steps();  // the library orders its own steps
            account_cube(PipeId::MTE1, "Matmul:LoadBias", cube::mte1_cycles(Mem::BT, job.bn * sizeof(TAcc)), job.bn * sizeof(TAcc), {buf.bt, buf.l1});
            LocalTensor<TAcc> btt(bt, uint32_t(buf.bt_bytes / sizeof(TAcc)));
            order_internal_steps();  // the library orders its own steps
            Mmad(l0c, l0a, l0b, btt, p);
        } else {
            p.cmatrixInitVal = k0 == 0;
            order_internal_steps();  // the library orders its own steps
            Mmad(l0c, l0a, l0b, p);
        }
    }
    st.hf32 = saved_hf32;
    zero(out, job.bm * job.bn);
    if (job.k == 0) {  // no K: the bias alone (or zeros)
        if (job.bias_on) {
            const TBias* bias = source_span<TBias>(job.bias, 0, 1, job.b_col0 + job.n0, job.b_col0 + job.n0 + job.bn, api);
            for (uint64_t i = 0; i < job.bm; ++i)
                for (uint64_t j = 0; j < job.bn; ++j) out[i * job.bn + j] = to_acc<TAcc>(bias[job.b_col0 + job.n0 + j]);
        }
        return;
    }
    const TAcc* c = l0c.data();
    for (uint64_t i = 0; i < job.bm; ++i)
        for (uint64_t j = 0; j < job.bn; ++j) out[i * job.bn + j] = c[cube::nz(i, j, m1)];
}

// The accumulator value converted to the output type as the Fixpipe converts it (float ->
// half / bfloat16_t round to nearest even; int32 and float unchanged).
template <class TC, class TAcc>
ASCENDOPT_TWIN_FN TC convert_out(TAcc v) {
    if constexpr (std::is_same_v<TC, TAcc>) return v;
    else if constexpr (std::is_same_v<TAcc, float>) return TC(v);
    else return TC(float(v));
}

// The Fixpipe quantization a Matmul's SetQuantScalar / SetQuantVector selects for its L0C type
// and C type: int32 -> half DEQF16, int32 -> int8/uint8 REQ8, float -> int8/uint8 QF322B8_PRE
// (their V... forms with a word per column); NoQuant where the pair has none.
template <class TC, class TAcc>
ASCENDOPT_TWIN_FN constexpr AscendC::QuantMode_t output_quant_mode(bool per_column) {
    using Q = AscendC::QuantMode_t;
    constexpr bool b8 = std::is_same_v<TC, int8_t> || std::is_same_v<TC, uint8_t>;
    if constexpr (std::is_same_v<TAcc, int32_t> && std::is_same_v<TC, half>) return per_column ? Q::VDEQF16 : Q::DEQF16;
    else if constexpr (std::is_same_v<TAcc, int32_t> && b8) return per_column ? Q::VREQ8 : Q::REQ8;
    else if constexpr (std::is_same_v<TAcc, float> && b8) return per_column ? Q::VQF322B8_PRE : Q::QF322B8_PRE;
    else return Q::NoQuant;
}

// One output element: as the Fixpipe converts it under `quant` (a block's columns from 0), or
// the plain conversion without one.
template <class TC, class TAcc>
ASCENDOPT_TWIN_FN TC convert_block_out(TAcc v, uint64_t col, const cube::FixJob* quant) {
    return quant ? cube::convert<TC>(v, uint32_t(col), *quant) : convert_out<TC>(v);
}

// Writes a bm x bn block (row-major `block`) to GM at `addr` (element (i, j) at i * ld + j,
// in TC) on the AIC's FIX pipe, with the atomic mode of `enAtomic` (0 none, 1 add, 2 max,
// 3 min), as IterateAll / GetTensorC document it; `quant`: the output quantization, if any.
template <class TC, class TAcc>
ASCENDOPT_TWIN_FN void write_block_gm(const TAcc* block, uint64_t bm, uint64_t bn, uint64_t addr, uint64_t ld, uint8_t enAtomic,
                                      const CubeBuffers& buf, const char* api, const cube::FixJob* quant = nullptr) {
    if (enAtomic > 3) fail(ErrorKind::run_failed, api, "enAtomic " + num(enAtomic) + ": 0 (none), 1 (add), 2 (max) or 3 (min)");
    const AtomicOp saved = atomic_op();
    if (enAtomic != 0) set_atomic(enAtomic == 1 ? AtomicOp::add : enAtomic == 2 ? AtomicOp::max : AtomicOp::min, detail::atomic_type_of<TC>());
    constexpr uint64_t k_chunk = 256;  // elements converted per gm_write
    TC row[k_chunk];
    for (uint64_t i = 0; i < bm; ++i)
        for (uint64_t j0 = 0; j0 < bn; j0 += k_chunk) {
            const uint64_t len = bn - j0 < k_chunk ? bn - j0 : k_chunk;
            for (uint64_t j = 0; j < len; ++j) row[j] = convert_block_out<TC>(block[i * bn + j0 + j], j0 + j, quant);
            gm_write(addr + (i * ld + j0) * sizeof(TC), row, len * sizeof(TC), api);
        }
    if (enAtomic != 0) set_atomic(saved, detail::atomic_type_of<TC>());
    const uint64_t bytes = bm * bn * sizeof(TC);
    order_internal_steps();  // the library orders its own steps
    account_cube(PipeId::FIX, "Matmul:Fixpipe(GM)", double(bm * bn * sizeof(TAcc)) / cube_timing().fix_bytes_per_cycle, bytes, {nullptr, buf.l0c},
                 bytes);
}

}  // namespace ascendopt_twin::mm
