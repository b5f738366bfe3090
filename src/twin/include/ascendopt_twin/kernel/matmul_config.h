// The compile-time side of the Matmul API ("Matmul Kernel侧接口"): MatmulType (where an operand
// lives, its format and type, whether it is transposed), MatmulConfig and the helpers that build
// one (CFG_NORM, CFG_MDL, GetNormalConfig, GetMDLConfig, GetMMConfig with MatmulShapeParams /
// MatmulQuantParams / MatmulBatchParams / MatmulFuncParams), and MatmulApiStaticTiling from
// GetMatmulApiTiling, all constexpr so that operators can use them as template arguments.
// The twin's Matmul reads from a config only what changes results or the block order: the
// shape parameters of a constant tiling and iterateOrder; scheduling switches (MDL, preload,
// unit flag, double caches) are accepted and have no functional effect (docs/twin.md).
#pragma once

#include "ascendopt_twin/attrs.h"

#include <cstdint>

#include "ascendopt_twin/kernel/defs.h"
#include "ascendopt_twin/kernel/matmul_cube_tiling.h"

namespace AscendC {

// Operand formats: ND (row-major), NZ (fractal), ND_ALIGN (ND with rows padded to 32 bytes,
// for C), and the vector formats the API names.
enum class CubeFormat : uint8_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR, ROW_MAJOR = ND, COLUMN_MAJOR = 8 };
enum class LayoutMode : uint8_t { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };

enum class IterateOrder : int32_t { ORDER_M = 0, ORDER_N, UNDEF };
enum class ScheduleType : int32_t { INNER_PRODUCT = 0, OUTER_PRODUCT };
enum class BatchMode : int32_t { NONE = 0, BATCH_LESS_THAN_L1, BATCH_LARGE_THAN_L1, SINGLE_LARGE_THAN_L1 };
enum class BatchOutMode : int32_t { SINGLE_BATCH = 0, MULTI_BATCH, DYNAMIC };
enum class IterateMode : uint8_t { ITERATE_MODE_NORMAL = 0b1, ITERATE_MODE_ALL = 0b10, ITERATE_MODE_BATCH = 0b100,
                                   ITERATE_MODE_N_BATCH = 0b1000, ITERATE_MODE_DEFAULT = 0b11111111 };
enum class MatmulConfigMode : int32_t { CONFIG_NORM, CONFIG_MDL, CONFIG_SPECIALMDL, CONFIG_IBSHARE };

template <TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false, LayoutMode LAYOUT = LayoutMode::NONE,
          bool IBSHARE = false>
struct MatmulType {
    constexpr static TPosition pos = POSITION;
    constexpr static CubeFormat format = FORMAT;
    using T = TYPE;
    constexpr static bool isTrans = ISTRANS;
    constexpr static LayoutMode layout = LAYOUT;
    constexpr static bool ibShare = IBSHARE;
};

// The documented fields; the twin uses singleCore*/basic* (constant shapes) and iterateOrder.
struct MatmulConfig {
    bool doNorm = true;
    bool doBasicBlock = false;
    bool doMultiDataLoad = false;
    uint32_t basicM = 0;
    uint32_t basicN = 0;
    uint32_t basicK = 0;
    bool intrinsicsCheck = false;
    bool isNBatch = false;
    bool enVecND2NZ = false;
    bool doSpecialBasicBlock = false;
    uint32_t doMTE2Preload = 0;
    uint32_t singleCoreM = 0;
    uint32_t singleCoreN = 0;
    uint32_t singleCoreK = 0;
    uint32_t stepM = 0;
    uint32_t stepN = 0;
    uint32_t baseMN = 0;
    uint32_t singleCoreMN = 0;
    bool enUnitFlag = true;
    bool isPerTensor = false;
    bool hasAntiQuantOffset = false;
    bool doIBShareNorm = false;
    bool doSpecialMDL = false;
    bool enableInit = true;
    BatchMode batchMode = BatchMode::NONE;
    bool enableEnd = true;
    bool enableGetTensorC = true;
    bool enableSetOrgShape = true;
    bool enableSetBias = true;
    bool enableSetTail = true;
    bool enableQuantVector = true;
    bool enableSetDefineData = true;
    uint8_t iterateMode = uint8_t(IterateMode::ITERATE_MODE_DEFAULT);
    bool enableReuse = true;
    bool enableUBReuse = false;
    bool enableL1CacheUB = false;
    bool intraBlockPartSum = false;
    IterateOrder iterateOrder = IterateOrder::UNDEF;
    ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
    bool enableDoubleCache = false;
    bool isBiasBatch = true;
    bool enableStaticPadZeros = false;
    bool isPartialOutput = false;
    bool enableMixDualMaster = false;
    bool isA2B2Shared = false;
    bool isEnableChannelSplit = false;
    bool enableKdimReorderLoad = false;
    bool isCO1Shared = false;
    uint32_t sharedCO1BufferSize = 0;
    BatchOutMode batchOutMode = BatchOutMode::SINGLE_BATCH;
};

struct MatmulShapeParams {
    uint32_t singleCoreM = 0;
    uint32_t singleCoreN = 0;
    uint32_t singleCoreK = 0;
    uint32_t basicM = 0;
    uint32_t basicN = 0;
    uint32_t basicK = 0;
};
struct MatmulQuantParams {
    bool isPerTensor = false;
    bool hasAntiQuantOffset = false;
};
struct MatmulBatchParams {
    bool isNBatch = false;
    BatchMode batchMode = BatchMode::NONE;
    bool isBiasBatch = true;
    BatchOutMode batchOutMode = BatchOutMode::SINGLE_BATCH;
};
struct MatmulFuncParams {
    bool intrinsicsLimit = false;
    bool enVecND2NZ = false;
    bool enableDoubleCache = false;
    bool enableL1CacheUB = false;
    uint32_t doMTE2Preload = 0;
    IterateOrder iterateOrder = IterateOrder::UNDEF;
    ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
    bool enableReuse = true;
    bool enableUBReuse = false;
    bool isPartialOutput = false;
    bool isA2B2Shared = false;
    bool isEnableChannelSplit = false;
    bool enableKdimReorderLoad = false;
};

ASCENDOPT_TWIN_FN constexpr MatmulConfig GetNormalConfig(bool intrinsicsLimit = false, bool batchLoop = false, bool isVecND2NZ = false,
                                                         BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1, bool isMsgReuse = true,
                                                         IterateOrder iterateOrder = IterateOrder::UNDEF,
                                                         ScheduleType scheduleType = ScheduleType::INNER_PRODUCT, bool enUnitFlag = true,
                                                         bool enableMixDualMaster = false,
                                                         BatchOutMode batchOutMode = BatchOutMode::SINGLE_BATCH) {
    MatmulConfig c{};
    c.doNorm = true;
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.enVecND2NZ = isVecND2NZ;
    c.batchMode = bmmMode;
    c.enableReuse = isMsgReuse;
    c.iterateOrder = iterateOrder;
    c.scheduleType = scheduleType;
    c.enUnitFlag = enUnitFlag;
    c.enableMixDualMaster = enableMixDualMaster;
    c.batchOutMode = batchOutMode;
    return c;
}

ASCENDOPT_TWIN_FN constexpr MatmulConfig GetMDLConfig(bool intrinsicsLimit = false, bool batchLoop = false, uint32_t doMTE2Preload = 0,
                                                      bool isVecND2NZ = false, bool isPerTensor = false, bool hasAntiQuantOffset = false,
                                                      bool enUnitFlag = false, bool isMsgReuse = true, bool enableUBReuse = true,
                                                      bool enableL1CacheUB = false, bool enableMixDualMaster = false,
                                                      bool enableKdimReorderLoad = false) {
    MatmulConfig c{};
    c.doNorm = false;
    c.doMultiDataLoad = true;
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.doMTE2Preload = doMTE2Preload;
    c.enVecND2NZ = isVecND2NZ;
    c.isPerTensor = isPerTensor;
    c.hasAntiQuantOffset = hasAntiQuantOffset;
    c.enUnitFlag = enUnitFlag;
    c.enableReuse = isMsgReuse;
    c.enableUBReuse = enableUBReuse;
    c.enableL1CacheUB = enableL1CacheUB;
    c.enableMixDualMaster = enableMixDualMaster;
    c.enableKdimReorderLoad = enableKdimReorderLoad;
    return c;
}

ASCENDOPT_TWIN_FN constexpr MatmulConfig GetSpecialMDLConfig(bool intrinsicsLimit = false, bool batchLoop = false, uint32_t doMTE2Preload = 0,
                                                             bool isVecND2NZ = false, bool isPerTensor = false,
                                                             bool hasAntiQuantOffset = false) {
    MatmulConfig c = GetMDLConfig(intrinsicsLimit, batchLoop, doMTE2Preload, isVecND2NZ, isPerTensor, hasAntiQuantOffset);
    c.doMultiDataLoad = false;
    c.doSpecialMDL = true;
    return c;
}

ASCENDOPT_TWIN_FN constexpr MatmulConfig GetIBShareNormConfig(bool intrinsicsLimit = false, bool batchLoop = false, bool isVecND2NZ = false,
                                                              BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1, bool isDoubleCache = false,
                                                              bool enUnitFlag = true) {
    MatmulConfig c = GetNormalConfig(intrinsicsLimit, batchLoop, isVecND2NZ, bmmMode);
    c.doNorm = false;
    c.doIBShareNorm = true;
    c.enableDoubleCache = isDoubleCache;
    c.enUnitFlag = enUnitFlag;
    return c;
}

ASCENDOPT_TWIN_FN constexpr MatmulConfig GetBasicConfig(uint32_t basicM, uint32_t basicN, uint32_t basicK, bool intrinsicsLimit = false,
                                                        bool batchLoop = false, BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1) {
    MatmulConfig c = GetNormalConfig(intrinsicsLimit, batchLoop, false, bmmMode);
    c.doNorm = false;
    c.doBasicBlock = true;
    c.basicM = basicM;
    c.basicN = basicN;
    c.basicK = basicK;
    return c;
}

// A config of `mode` with the given parameters applied (any of them may be omitted).
template <MatmulConfigMode mode>
ASCENDOPT_TWIN_FN constexpr MatmulConfig GetMMConfig(const MatmulShapeParams& shape = {}, const MatmulQuantParams& quant = {},
                                                     const MatmulBatchParams& batch = {}, const MatmulFuncParams& func = {}) {
    MatmulConfig c = mode == MatmulConfigMode::CONFIG_MDL          ? GetMDLConfig()
                     : mode == MatmulConfigMode::CONFIG_SPECIALMDL ? GetSpecialMDLConfig()
                     : mode == MatmulConfigMode::CONFIG_IBSHARE    ? GetIBShareNormConfig()
                                                                   : GetNormalConfig();
    c.singleCoreM = shape.singleCoreM;
    c.singleCoreN = shape.singleCoreN;
    c.singleCoreK = shape.singleCoreK;
    c.basicM = shape.basicM;
    c.basicN = shape.basicN;
    c.basicK = shape.basicK;
    c.isPerTensor = quant.isPerTensor;
    c.hasAntiQuantOffset = quant.hasAntiQuantOffset;
    c.isNBatch = batch.isNBatch;
    c.batchMode = batch.batchMode;
    c.isBiasBatch = batch.isBiasBatch;
    c.batchOutMode = batch.batchOutMode;
    c.intrinsicsCheck = func.intrinsicsLimit;
    c.enVecND2NZ = func.enVecND2NZ;
    c.enableDoubleCache = func.enableDoubleCache;
    c.enableL1CacheUB = func.enableL1CacheUB;
    c.doMTE2Preload = func.doMTE2Preload;
    c.iterateOrder = func.iterateOrder;
    c.scheduleType = func.scheduleType;
    c.enableReuse = func.enableReuse;
    c.enableUBReuse = func.enableUBReuse;
    c.isPartialOutput = func.isPartialOutput;
    c.isA2B2Shared = func.isA2B2Shared;
    c.isEnableChannelSplit = func.isEnableChannelSplit;
    c.enableKdimReorderLoad = func.enableKdimReorderLoad;
    return c;
}

constexpr MatmulConfig CFG_NORM = GetNormalConfig();
constexpr MatmulConfig CFG_MDL = GetMDLConfig();
constexpr MatmulConfig CFG_IBSHARE_NORM = GetIBShareNormConfig();
constexpr MatmulConfig MM_CFG_BB = GetBasicConfig(128, 128, 128);

// A tiling fixed at compile time ("全量常量化"): the TCubeTiling fields as int32 constants
// (-1: not fixed) plus the config it came from.
struct MatmulApiStaticTiling {
    int32_t usedCoreNum = -1;
    int32_t M = -1, N = -1, Ka = -1, Kb = -1;
    int32_t singleCoreM = -1, singleCoreN = -1, singleCoreK = -1;
    int32_t baseM = -1, baseN = -1, baseK = -1;
    int32_t depthA1 = -1, depthB1 = -1;
    int32_t stepM = -1, stepN = -1;
    int32_t isBias = -1;
    int32_t transLength = -1;
    int32_t iterateOrder = -1;
    int32_t shareMode = -1;
    int32_t shareL1Size = -1, shareL0CSize = -1, shareUbSize = -1;
    int32_t stepKa = -1, stepKb = -1;
    int32_t depthAL1CacheUB = -1, depthBL1CacheUB = -1;
    int32_t dbL0A = -1, dbL0B = -1, dbL0C = -1;
    MatmulConfig cfg = CFG_NORM;
};

// The static tiling of `mmCFG` for the operand types: the shape parameters it fixes, one base
// block per step in M and N, and as many baseK steps in L1 as the whole singleCoreK when both
// operands' single-core K slices fit half of `l1Size`, else one.
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE>
ASCENDOPT_TWIN_FN constexpr MatmulApiStaticTiling GetMatmulApiTiling(const MatmulConfig& mmCFG, int32_t l1Size = 512 * 1024) {
    MatmulApiStaticTiling t{};
    t.cfg = mmCFG;
    if (mmCFG.singleCoreM == 0 || mmCFG.singleCoreN == 0 || mmCFG.singleCoreK == 0 || mmCFG.basicM == 0 || mmCFG.basicN == 0 ||
        mmCFG.basicK == 0)
        return t;  // not constant: the runtime tiling decides
    t.singleCoreM = int32_t(mmCFG.singleCoreM);
    t.singleCoreN = int32_t(mmCFG.singleCoreN);
    t.singleCoreK = int32_t(mmCFG.singleCoreK);
    t.baseM = int32_t(mmCFG.basicM);
    t.baseN = int32_t(mmCFG.basicN);
    t.baseK = int32_t(mmCFG.basicK);
    t.stepM = 1;
    t.stepN = 1;
    const int32_t kSteps = (t.singleCoreK + t.baseK - 1) / t.baseK;
    const int32_t aBytes = t.baseM * t.baseK * int32_t(sizeof(typename A_TYPE::T)) * kSteps;
    const int32_t bBytes = t.baseN * t.baseK * int32_t(sizeof(typename B_TYPE::T)) * kSteps;
    const bool fits = aBytes + bBytes <= l1Size / 2;
    t.stepKa = fits ? kSteps : 1;
    t.stepKb = fits ? kSteps : 1;
    t.depthA1 = t.stepKa * t.stepM;
    t.depthB1 = t.stepKb * t.stepN;
    t.iterateOrder = mmCFG.iterateOrder == IterateOrder::ORDER_N ? 1 : 0;
    t.dbL0A = 2;
    t.dbL0B = 2;
    t.dbL0C = 1;
    return t;
}

// Matmul's callback hooks: the user's copy of C out of L0C (DataCopyOut) and of A / B into L1
// (CopyA1 / CopyB1). The twin calls CopyA1 and CopyB1 (matmul.h says when); DataCopyOut is
// refused at compile time (docs/twin.md "The Matmul API").
template <auto DataCopyOut = nullptr, auto CopyA1 = nullptr, auto CopyB1 = nullptr>
struct MatmulCallBackFunc {
    static constexpr auto data_copy_out = DataCopyOut;
    static constexpr auto copy_a1 = CopyA1;
    static constexpr auto copy_b1 = CopyB1;
};

}  // namespace AscendC
