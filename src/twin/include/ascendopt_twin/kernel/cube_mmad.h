// Mmad: C (L0C, Nz) = A (L0A, Zz) x B (L0B, Zn) + the C matrix's initial value, on the cube
// (PIPE_M). As documented ("Mmad"): m, n, k up to 4095 (any 0 is a NOP); the initial value is
// zero (cmatrixInitVal), the C already in L0C (cmatrixInitVal = false), or a bias row of N
// elements in the bias table (the overload with a bias tensor in C2, or cmatrixSource); m == 1
// reads A as a plain row of K elements (GEMV); kDirectionAlign pads float K to 16. Types:
// int8 x int8 -> int32, half x half -> float, bfloat16 x bfloat16 -> float, float x float ->
// float (SetHF32Mode rounds float inputs to HF32 first). Fractal layouts: cube_common.h.
#pragma once

#include "ascendopt_twin/attrs.h"

#include <type_traits>

#include "ascendopt_twin/kernel/cube_common.h"

namespace AscendC {

struct MmadParams {
    uint16_t m = 0;
    uint16_t n = 0;
    uint16_t k = 0;
    bool isBias = false;  // deprecated: true accumulates into C (C += A x B)
    int32_t fmOffset = 0;
    bool enSsparse = false;
    bool enWinogradA = false;
    bool enWinogradB = false;
    uint8_t unitFlag = 0;          // 0, 2 or 3: Mmad/Fixpipe fine-grained overlap; functionally nothing
    bool kDirectionAlign = false;  // float only: K padded to 16 instead of 8 in L0A/L0B
    bool cmatrixSource = false;    // C starts from the bias table
    bool cmatrixInitVal = true;    // C starts from zero
    MmadParams() = default;
    ASCENDOPT_TWIN_FN MmadParams(uint16_t m_, uint16_t n_, uint16_t k_, bool bias, int32_t offset, bool sparse, bool winogradA, bool winogradB)
        : m(m_), n(n_), k(k_), isBias(bias), fmOffset(offset), enSsparse(sparse), enWinogradA(winogradA), enWinogradB(winogradB) {}
    ASCENDOPT_TWIN_FN MmadParams(uint16_t m_, uint16_t n_, uint16_t k_, uint8_t unit, bool source, bool initVal)
        : m(m_), n(n_), k(k_), unitFlag(unit), cmatrixSource(source), cmatrixInitVal(initVal) {}
};

enum class HF32Mode : uint8_t { DISABLE, ENABLE };
enum class HF32TransMode : uint8_t { NEAREST_EVEN, NEAREST_ZERO };

// float data in L0A / L0B is rounded to HF32 (1 sign, 8 exponent, 11 mantissa bits) before Mmad.
ASCENDOPT_TWIN_FN inline void SetHF32Mode(HF32Mode mode) { ascendopt_twin::cube_state().hf32 = mode == HF32Mode::ENABLE; }
ASCENDOPT_TWIN_FN inline void SetHF32Mode(bool enable) { ascendopt_twin::cube_state().hf32 = enable; }
ASCENDOPT_TWIN_FN inline void SetHF32TransMode(HF32TransMode mode) {
    ascendopt_twin::cube_state().hf32_round_to_zero = mode == HF32TransMode::NEAREST_ZERO;
}
ASCENDOPT_TWIN_FN inline void SetHF32TransMode(bool roundToZero) { ascendopt_twin::cube_state().hf32_round_to_zero = roundToZero; }

}  // namespace AscendC

namespace ascendopt_twin::cube {

enum class CInit { zero, accumulate, bias };

// float rounded to HF32: 11 mantissa bits, to nearest even or toward zero.
ASCENDOPT_TWIN_FN inline float to_hf32(float x, bool toward_zero) {
    uint32_t b = float_bits(x);
    if ((b & 0x7f800000u) == 0x7f800000u) return x;  // inf, NaN
    constexpr uint32_t drop = 12, mask = (1u << drop) - 1;
    if (!toward_zero) {
        const uint32_t rest = b & mask, half = 1u << (drop - 1);
        if (rest > half || (rest == half && (b & (1u << drop)))) b += 1u << drop;
    }
    return bits_float(b & ~mask);
}

template <class T>
ASCENDOPT_TWIN_FN double cube_input(T v, bool hf32, bool toward_zero) {
    if constexpr (std::is_same_v<T, float>) return hf32 ? double(to_hf32(v, toward_zero)) : double(v);
    else return double(float(v));
}

// The element offsets of A[i][j] in L0A (Zz, or ND for GEMV), B[i][j] in L0B (Zn) and C[i][j]
// in L0C (Nz), for K blocked by `kc` elements (C0), `k1` K fractals, `n1` N fractals, `m1` M
// fractals.
ASCENDOPT_TWIN_FN inline uint64_t zz(uint64_t i, uint64_t j, uint64_t kc, uint64_t k1) {
    return ((i / 16) * k1 + j / kc) * 16 * kc + (i % 16) * kc + j % kc;
}
ASCENDOPT_TWIN_FN inline uint64_t zn(uint64_t i, uint64_t j, uint64_t kc, uint64_t n1) {
    return ((i / kc) * n1 + j / 16) * 16 * kc + (j % 16) * kc + i % kc;
}
ASCENDOPT_TWIN_FN inline uint64_t nz(uint64_t i, uint64_t j, uint64_t m1) { return ((j / 16) * m1 + i / 16) * 256 + (i % 16) * 16 + j % 16; }

// The entry point of Mmad: checks, computes C's valid m x n elements (those of its fractals
// outside m x n are not written; A's and B's padding does not contribute), and charges the M
// pipe with ceil(m/16) * ceil(n/16) * (32-byte K blocks) fractal steps. `bias`: N elements
// when `init` is CInit::bias.
template <class TC, class TA, class TB, class TBias>
ASCENDOPT_TWIN_FN void mmad(const AscendC::LocalTensor<TC>& c, const AscendC::LocalTensor<TA>& a, const AscendC::LocalTensor<TB>& b,
                            const TBias* bias, const AscendC::MmadParams& p, CInit init, const char* api) {
    require_core(CoreKind::aic, api);
    constexpr bool int8 = std::is_same_v<TA, int8_t> && std::is_same_v<TB, int8_t> && std::is_same_v<TC, int32_t>;
    constexpr bool f16 = std::is_same_v<TA, half> && std::is_same_v<TB, half> && std::is_same_v<TC, float>;
    constexpr bool bf16 = std::is_same_v<TA, bfloat16_t> && std::is_same_v<TB, bfloat16_t> && std::is_same_v<TC, float>;
    constexpr bool f32 = std::is_same_v<TA, float> && std::is_same_v<TB, float> && std::is_same_v<TC, float>;
    if constexpr (!(int8 || f16 || bf16 || f32)) {
        fail(ErrorKind::run_failed, api,
             "unsupported types: fm " + num(sizeof(TA)) + "-byte, filter " + num(sizeof(TB)) + "-byte, dst " + num(sizeof(TC)) +
                 "-byte; the 910B cube takes int8 x int8 -> int32, half x half -> float, bfloat16_t x bfloat16_t -> float and "
                 "float x float -> float");
    } else {
        if (p.m > 4095 || p.n > 4095 || p.k > 4095)
            fail(ErrorKind::run_failed, api, "m " + num(p.m) + ", n " + num(p.n) + ", k " + num(p.k) + ": each must be 0..4095");
        if (p.m == 0 || p.n == 0 || p.k == 0) return;  // documented NOP
        constexpr uint64_t kc = c0<TA>();
        const uint64_t kpad = (f32 && p.kDirectionAlign) ? ceil_div(p.k, 16) * 16 : ceil_div(p.k, kc) * kc;
        const uint64_t m1 = ceil_div(p.m, 16), n1 = ceil_div(p.n, 16), k1 = kpad / kc;
        const bool gemv = p.m == 1;
        const uint64_t a_elems = gemv ? p.k : m1 * k1 * 16 * kc;
        require_local(api, "dst", c, {Mem::L0C}, 1024, n1 * m1 * 256 * sizeof(TC));
        require_local(api, "fm", a, {Mem::L0A}, k_fractal_bytes, a_elems * sizeof(TA));
        require_local(api, "filter", b, {Mem::L0B}, k_fractal_bytes, k1 * n1 * 16 * kc * sizeof(TB));
        const CubeState& st = cube_state();
        const bool hf32 = f32 && st.hf32;
        const TA* A = a.data();
        const TB* B = b.data();
        TC* C = c.data();
        for (uint64_t i = 0; i < p.m; ++i)
            for (uint64_t j = 0; j < p.n; ++j) {
                TC& out = C[nz(i, j, m1)];
                if constexpr (int8) {
                    int64_t acc = init == CInit::zero ? 0 : init == CInit::bias ? int64_t(bias[j]) : int64_t(out);
                    for (uint64_t x = 0; x < p.k; ++x) acc += int64_t(A[gemv ? x : zz(i, x, kc, k1)]) * int64_t(B[zn(x, j, kc, n1)]);
                    out = int32_t(uint32_t(uint64_t(acc)));  // two's complement wrap, as 32-bit accumulation
                } else {
                    // Products of 16-bit floats are exact in float; the sum is formed exactly
                    // (double) and rounded to float once: the twin's choice (docs/twin.md).
                    double acc = init == CInit::zero ? 0.0 : init == CInit::bias ? double(bias[j]) : double(out);
                    for (uint64_t x = 0; x < p.k; ++x)
                        acc += cube_input(A[gemv ? x : zz(i, x, kc, k1)], hf32, st.hf32_round_to_zero) *
                               cube_input(B[zn(x, j, kc, n1)], hf32, st.hf32_round_to_zero);
                    out = float(acc);
                }
            }
        // K blocks of 32 bytes per step (int8: 32 elements, half: 16, float: 8; HF32: 16).
        const uint64_t k_steps = hf32 ? ceil_div(p.k, 16) : ceil_div(kpad * sizeof(TA), 32);
        const double cycles = double(m1 * n1 * k_steps) * cube_timing().m_cycles_per_fractal;
        account_cube(PipeId::M, "Mmad", cycles, uint64_t(p.m) * p.n * p.k, {c.data(), a.data(), b.data(), bias});
    }
}

}  // namespace ascendopt_twin::cube

namespace AscendC {

// C = A x B, C starting from zero, from what L0C holds, or from the bias table (at BT offset 0),
// as cmatrixInitVal / cmatrixSource / isBias say.
template <class TC, class TA, class TB>
ASCENDOPT_TWIN_FN void Mmad(const LocalTensor<TC>& dst, const LocalTensor<TA>& fm, const LocalTensor<TB>& filter, const MmadParams& p) {
    using namespace ascendopt_twin::cube;
    using Bias = std::conditional_t<std::is_same_v<TC, int32_t>, int32_t, float>;
    const bool from_bt = !p.cmatrixInitVal && p.cmatrixSource && !p.isBias;
    const CInit init = from_bt ? CInit::bias : (p.cmatrixInitVal && !p.isBias) ? CInit::zero : CInit::accumulate;
    const Bias* bias = nullptr;
    if (from_bt && p.m != 0 && p.n != 0 && p.k != 0) {
        LocalTensor<Bias> bt(reinterpret_cast<Bias*>(ascendopt_twin::mem_base(ascendopt_twin::Mem::BT)), p.n,
                             ascendopt_twin::mem_size(ascendopt_twin::Mem::BT) / sizeof(Bias));
        require_local("Mmad", "bias table", bt, {ascendopt_twin::Mem::BT}, 64, uint64_t(p.n) * sizeof(Bias));
        bias = bt.data();
    }
    mmad(dst, fm, filter, bias, p, init, "Mmad");
}

// C = A x B + bias: `bias` (N elements) in the bias table (TPosition::C2) initializes C; a bias
// tensor that is `dst` itself (L0C) makes it C += A x B.
template <class TC, class TA, class TB, class TBias>
ASCENDOPT_TWIN_FN void Mmad(const LocalTensor<TC>& dst, const LocalTensor<TA>& fm, const LocalTensor<TB>& filter, const LocalTensor<TBias>& bias,
                            const MmadParams& p) {
    using namespace ascendopt_twin::cube;
    if (static_cast<const void*>(bias.data()) == static_cast<const void*>(dst.data()))
        return mmad(dst, fm, filter, static_cast<const TBias*>(nullptr), p, CInit::accumulate, "Mmad");
    if (p.m != 0 && p.n != 0 && p.k != 0) require_local("Mmad", "bias", bias, {ascendopt_twin::Mem::BT}, 64, uint64_t(p.n) * sizeof(TBias));
    mmad(dst, fm, filter, bias.data(), p, CInit::bias, "Mmad");
}

// The internal name some kernels call.
template <class TC, class TA, class TB>
ASCENDOPT_TWIN_FN void MmadImpl(const LocalTensor<TC>& dst, const LocalTensor<TA>& fm, const LocalTensor<TB>& filter, const MmadParams& p) {
    Mmad(dst, fm, filter, p);
}

}  // namespace AscendC
