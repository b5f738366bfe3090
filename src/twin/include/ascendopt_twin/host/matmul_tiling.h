// Host-side Matmul tiling (tiling/tiling_api.h): namespace matmul_tiling with MatmulApiTiling
// (one core) and MultiCoreMatmulTiling, which fill a TCubeTiling (kernel/matmul_cube_tiling.h)
// for the kernel's Matmul objects. The setters are the documented ones; the split is the
// twin's own choice, documented in docs/twin.md ("The Matmul API"), and need not equal CANN's:
//   cores:  the mDim x nDim grid (mDim * nDim <= SetDim) whose single-core block (rounded up
//           to 16 rows / columns) is smallest, ties to the larger mDim; SetSingleShape fixes it;
//   base:   SetFixSplit values, else baseM <= 128, baseN <= 128 (multiples of 16, no larger
//           than the single-core block), baseK the largest multiple of 16 (32 for int8) that
//           lets L0A and L0B hold two base tiles each, no larger than K;
//   L1:     stepM = stepN = 1, stepKa = stepKb = as many baseK steps as fit half the L1 (all of
//           K when they do), depthA1 / depthB1 twice that when two sets fit;
//   checks: baseM * baseN * 4 <= L0C, baseM * baseK and baseK * baseN elements fit L0A / L0B,
//           base sizes multiples of 16 (baseK of C0); otherwise GetTiling returns -1.
#pragma once

#include <algorithm>
#include <cstdint>

#include "ascendopt_twin/host/platform.h"
#include "ascendopt_twin/kernel/matmul_cube_tiling.h"

namespace matmul_tiling {

enum class TPosition : int32_t { GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM, SHM = SPM, TSCM, MAX };
enum class CubeFormat : int32_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };
// The graph data type codes (ge::DataType values).
enum class DataType : int32_t {
    DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_UINT8 = 4, DT_INT16 = 6, DT_UINT16 = 7, DT_UINT32 = 8,
    DT_INT64 = 9, DT_UINT64 = 10, DT_DOUBLE = 11, DT_BOOL = 12, DT_BF16 = 27, DT_UNDEFINED = 28, DT_INT4 = 29,
    DT_MAX = 100
};
enum class MatrixTraverse : int32_t { NOSET = 0, FIRSTM = 1, FIRSTN = 2 };
enum class MatrixMadType : int32_t { NORMAL = 0, HF32 = 1 };
enum class DequantType : int32_t { SCALAR = 0, TENSOR = 1 };
enum class ScheduleType : int32_t { INNER_PRODUCT = 0, OUTER_PRODUCT = 1 };

// The memory sizes a tiling may use (bytes).
struct PlatformInfo {
    platform_ascendc::SocVersion socVersion = platform_ascendc::SocVersion::ASCEND910B;
    uint64_t l1Size = 512 * 1024;
    uint64_t l0CSize = 128 * 1024;
    uint64_t ubSize = 192 * 1024;
    uint64_t l0ASize = 64 * 1024;
    uint64_t l0BSize = 64 * 1024;
};

class MatmulApiTilingBase {
public:
    // Without a platform the twin assumes the 910B's memories (those of PlatformInfo).
    MatmulApiTilingBase() = default;
    explicit MatmulApiTilingBase(const platform_ascendc::PlatformAscendC& p) {
        p.GetCoreMemSize(platform_ascendc::CoreMemType::L1, m_plat.l1Size);
        p.GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, m_plat.l0CSize);
        p.GetCoreMemSize(platform_ascendc::CoreMemType::UB, m_plat.ubSize);
        p.GetCoreMemSize(platform_ascendc::CoreMemType::L0_A, m_plat.l0ASize);
        p.GetCoreMemSize(platform_ascendc::CoreMemType::L0_B, m_plat.l0BSize);
        m_plat.socVersion = p.GetSocVersion();
    }
    explicit MatmulApiTilingBase(const PlatformInfo& p) : m_plat(p) {}
    virtual ~MatmulApiTilingBase() = default;

    int32_t SetAType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false) {
        m_a = {pos, type, dataType, isTrans};
        return 0;
    }
    int32_t SetBType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false) {
        m_b = {pos, type, dataType, isTrans};
        return 0;
    }
    int32_t SetCType(TPosition pos, CubeFormat type, DataType dataType) {
        m_c = {pos, type, dataType, false};
        return 0;
    }
    int32_t SetBiasType(TPosition pos, CubeFormat type, DataType dataType) {
        m_biasType = {pos, type, dataType, false};
        return 0;
    }
    int32_t SetShape(int32_t m, int32_t n, int32_t k) {
        m_m = m, m_n = n, m_k = k;
        return 0;
    }
    int32_t SetOrgShape(int32_t orgM, int32_t orgN, int32_t orgK) { return SetOrgShape(orgM, orgN, orgK, orgK); }
    int32_t SetOrgShape(int32_t orgM, int32_t orgN, int32_t orgKa, int32_t orgKb) {
        m_orgM = orgM, m_orgN = orgN, m_orgKa = orgKa, m_orgKb = orgKb;
        return 0;
    }
    int32_t SetBias(bool isBiasIn = false) {
        m_bias = isBiasIn;
        return 0;
    }
    int32_t EnableBias(bool isBiasIn = false) { return SetBias(isBiasIn); }
    // -1 leaves a base size to the tiling.
    int32_t SetFixSplit(int32_t baseMIn = -1, int32_t baseNIn = -1, int32_t baseKIn = -1) {
        m_fixM = baseMIn, m_fixN = baseNIn, m_fixK = baseKIn;
        return 0;
    }
    // -1 keeps the platform's size.
    int32_t SetBufferSpace(int32_t l1Size = -1, int32_t l0CSize = -1, int32_t ubSize = -1, int32_t btSize = -1) {
        m_l1Limit = l1Size, m_l0cLimit = l0CSize;
        (void)ubSize, (void)btSize;
        return 0;
    }
    int32_t SetTraverse(MatrixTraverse traverse) {
        m_traverse = traverse;
        return 0;
    }
    int32_t SetMadType(MatrixMadType madType) {
        (void)madType;
        return 0;
    }
    int32_t SetSplitRange(int32_t maxBaseM = -1, int32_t maxBaseN = -1, int32_t maxBaseK = -1, int32_t minBaseM = -1, int32_t minBaseN = -1,
                          int32_t minBaseK = -1) {
        m_maxM = maxBaseM, m_maxN = maxBaseN, m_maxK = maxBaseK;
        (void)minBaseM, (void)minBaseN, (void)minBaseK;
        return 0;
    }
    int32_t SetDoubleBuffer(bool a, bool b, bool c, bool bias, bool transND2NZ = true, bool transNZ2ND = true) {
        (void)a, (void)b, (void)c, (void)bias, (void)transND2NZ, (void)transNZ2ND;
        return 0;
    }
    void SetMatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false, ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                               MatrixTraverse traverseIn = MatrixTraverse::NOSET, bool enVecND2NZIn = false) {
        (void)mmConfigTypeIn, (void)enableL1CacheUBIn, (void)scheduleTypeIn, (void)enVecND2NZIn;
        if (traverseIn != MatrixTraverse::NOSET) m_traverse = traverseIn;
    }
    int32_t SetDequantType(DequantType dequantType) {
        (void)dequantType;
        return 0;
    }

    // 0, or -1 when no valid tiling exists for the settings.
    int64_t GetTiling(optiling::TCubeTiling& tiling) {
        optiling::TCubeTiling t{};
        if (!compute(t)) return -1;
        tiling = t;
        return 0;
    }
    int32_t GetBaseM() const { return m_last.baseM; }
    int32_t GetBaseN() const { return m_last.baseN; }
    int32_t GetBaseK() const { return m_last.baseK; }

protected:
    struct Operand {
        TPosition pos = TPosition::GM;
        CubeFormat format = CubeFormat::ND;
        DataType type = DataType::DT_FLOAT16;
        bool trans = false;
    };
    static int32_t bytes_of(DataType t) {
        switch (t) {
            case DataType::DT_FLOAT: case DataType::DT_INT32: case DataType::DT_UINT32: return 4;
            case DataType::DT_INT8: case DataType::DT_UINT8: case DataType::DT_INT4: return 1;
            default: return 2;
        }
    }
    static int32_t ceil_div(int32_t a, int32_t b) { return b <= 0 ? 0 : (a + b - 1) / b; }
    static int32_t align(int32_t a, int32_t b) { return ceil_div(a, b) * b; }

    // The single-core shape (MultiCoreMatmulTiling splits it; one core takes everything).
    virtual bool split_cores(int32_t m, int32_t n, int32_t& singleM, int32_t& singleN, int32_t& used) {
        singleM = m, singleN = n, used = 1;
        return true;
    }

    bool compute(optiling::TCubeTiling& t) {
        const int32_t m = m_m > 0 ? m_m : m_orgM, n = m_n > 0 ? m_n : m_orgN, k = m_k > 0 ? m_k : m_orgKa;
        if (m <= 0 || n <= 0 || k <= 0) return false;
        const int32_t orgM = m_orgM > 0 ? m_orgM : m, orgN = m_orgN > 0 ? m_orgN : n;
        const int32_t orgKa = m_orgKa > 0 ? m_orgKa : k, orgKb = m_orgKb > 0 ? m_orgKb : k;
        int32_t singleM = 0, singleN = 0, used = 1;
        if (!split_cores(m, n, singleM, singleN, used)) return false;
        const int32_t sa = bytes_of(m_a.type), sb = bytes_of(m_b.type);
        const int32_t kAlign = sa == 1 ? 32 : 16;
        const int64_t l0a = int64_t(m_plat.l0ASize), l0b = int64_t(m_plat.l0BSize);
        const int64_t l0c = m_l0cLimit > 0 ? m_l0cLimit : int64_t(m_plat.l0CSize);
        const int64_t l1 = m_l1Limit > 0 ? m_l1Limit : int64_t(m_plat.l1Size);
        int32_t baseM = m_fixM > 0 ? m_fixM : std::min(align(singleM, 16), m_maxM > 0 ? m_maxM : 128);
        int32_t baseN = m_fixN > 0 ? m_fixN : std::min(align(singleN, 16), m_maxN > 0 ? m_maxN : 128);
        int32_t baseK = m_fixK;
        if (baseK <= 0) {
            const int64_t byA = l0a / 2 / (int64_t(baseM) * sa), byB = l0b / 2 / (int64_t(baseN) * sb);
            baseK = int32_t(std::min<int64_t>(std::min(byA, byB), align(k, kAlign)) / kAlign * kAlign);
            if (m_maxK > 0) baseK = std::min(baseK, m_maxK / kAlign * kAlign);
        }
        if (baseM <= 0 || baseN <= 0 || baseK <= 0 || baseM % 16 || baseN % 16 || baseK % (32 / sa)) return false;
        if (int64_t(baseM) * baseN * 4 > l0c || int64_t(baseM) * baseK * sa > l0a || int64_t(baseK) * baseN * sb > l0b) return false;
        const int32_t kSteps = ceil_div(k, baseK);
        const int64_t perStep = int64_t(baseM) * baseK * sa + int64_t(baseK) * baseN * sb;
        const int64_t budget = l1 - (m_bias ? int64_t(baseN) * 4 : 0);
        int32_t stepK = kSteps;
        while (stepK > 1 && stepK * perStep > budget / 2) stepK = ceil_div(stepK, 2);
        if (stepK * perStep > budget) return false;
        const int32_t depth = 2 * stepK * perStep <= budget ? 2 * stepK : stepK;
        t.usedCoreNum = used;
        t.M = orgM, t.N = orgN, t.Ka = orgKa, t.Kb = orgKb;
        t.singleCoreM = singleM, t.singleCoreN = singleN, t.singleCoreK = k;
        t.baseM = baseM, t.baseN = baseN, t.baseK = baseK;
        t.depthA1 = depth, t.depthB1 = depth;
        t.stepM = 1, t.stepN = 1, t.stepKa = stepK, t.stepKb = stepK;
        t.isBias = m_bias ? 1 : 0;
        t.transLength = 0;
        t.iterateOrder = m_traverse == MatrixTraverse::FIRSTN ? 1 : 0;
        t.shareL1Size = int32_t(depth * perStep + (m_bias ? baseN * 4 : 0));
        t.shareL0CSize = baseM * baseN * 4;
        t.dbL0A = 2 * int64_t(baseM) * baseK * sa <= l0a ? 2 : 1;
        t.dbL0B = 2 * int64_t(baseK) * baseN * sb <= l0b ? 2 : 1;
        t.dbL0C = 2 * int64_t(baseM) * baseN * 4 <= l0c ? 2 : 1;
        t.batchM = t.batchN = t.singleBatchM = t.singleBatchN = 1;
        t.BatchNum = 1;
        m_last = t;
        return true;
    }

    PlatformInfo m_plat{};
    Operand m_a, m_b, m_c, m_biasType;
    int32_t m_m = -1, m_n = -1, m_k = -1;
    int32_t m_orgM = -1, m_orgN = -1, m_orgKa = -1, m_orgKb = -1;
    bool m_bias = false;
    int32_t m_fixM = -1, m_fixN = -1, m_fixK = -1;
    int32_t m_maxM = -1, m_maxN = -1, m_maxK = -1;
    int64_t m_l1Limit = -1, m_l0cLimit = -1;
    MatrixTraverse m_traverse = MatrixTraverse::NOSET;
    optiling::TCubeTiling m_last{};
};

// One core computes the whole shape.
class MatmulApiTiling : public MatmulApiTilingBase {
public:
    using MatmulApiTilingBase::MatmulApiTilingBase;
};

class MultiCoreMatmulTiling : public MatmulApiTilingBase {
public:
    using MatmulApiTilingBase::MatmulApiTilingBase;
    // The cores the split may use (default 1).
    int32_t SetDim(int32_t dim) {
        m_dim = dim;
        return 0;
    }
    int32_t SetSingleShape(int32_t singleMIn = -1, int32_t singleNIn = -1, int32_t singleKIn = -1) {
        m_singleM = singleMIn, m_singleN = singleNIn;
        if (singleKIn > 0) m_k = singleKIn;
        return 0;
    }
    int32_t SetSingleRange(int32_t maxM = -1, int32_t maxN = -1, int32_t maxK = -1, int32_t minM = -1, int32_t minN = -1, int32_t minK = -1) {
        (void)maxM, (void)maxN, (void)maxK, (void)minM, (void)minN, (void)minK;
        return 0;
    }
    // Single-core sizes rounded to these multiples where possible.
    int32_t SetAlignSplit(int32_t alignM, int32_t alignN, int32_t alignK) {
        m_alignM = alignM, m_alignN = alignN;
        (void)alignK;
        return 0;
    }
    void EnableMultiCoreSplitK(bool flag) { (void)flag; }
    int32_t GetSingleShape(int32_t& shapeM, int32_t& shapeN, int32_t& shapeK) const {
        shapeM = m_last.singleCoreM, shapeN = m_last.singleCoreN, shapeK = m_last.singleCoreK;
        return 0;
    }
    int32_t GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim) const {
        dim = m_last.usedCoreNum, mDim = m_mDim, nDim = m_nDim;
        return 0;
    }

protected:
    bool split_cores(int32_t m, int32_t n, int32_t& singleM, int32_t& singleN, int32_t& used) override {
        const int32_t am = m_alignM > 0 ? m_alignM : 16, an = m_alignN > 0 ? m_alignN : 16;
        if (m_singleM > 0 || m_singleN > 0) {
            singleM = m_singleM > 0 ? std::min(m_singleM, m) : m;
            singleN = m_singleN > 0 ? std::min(m_singleN, n) : n;
        } else {
            const int32_t dim = std::max(1, m_dim);
            int64_t best = -1;
            for (int32_t md = 1; md <= dim; ++md)
                for (int32_t nd = 1; md * nd <= dim; ++nd) {
                    const int32_t sm = std::min(m, align(ceil_div(m, md), am)), sn = std::min(n, align(ceil_div(n, nd), an));
                    const int64_t work = int64_t(sm) * sn;
                    if (best < 0 || work < best || (work == best && sm < singleM)) {
                        best = work;
                        singleM = sm;
                        singleN = sn;
                    }
                }
        }
        m_mDim = ceil_div(m, singleM);
        m_nDim = ceil_div(n, singleN);
        used = m_mDim * m_nDim;
        return used <= std::max(1, m_dim) || m_singleM > 0 || m_singleN > 0;
    }

    int32_t m_dim = 1;
    int32_t m_singleM = -1, m_singleN = -1;
    int32_t m_alignM = -1, m_alignN = -1;
    int32_t m_mDim = 1, m_nDim = 1;
};

// The batched variant some operators name; the twin gives it the multi-core split.
class BatchMatmulTiling : public MultiCoreMatmulTiling {
public:
    using MultiCoreMatmulTiling::MultiCoreMatmulTiling;
};

}  // namespace matmul_tiling
