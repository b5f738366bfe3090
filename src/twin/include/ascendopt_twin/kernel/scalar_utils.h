// Scalar helpers, type traits, constants and mask/cache controls of Ascend C that kernels use
// outside the vector instructions: ToFloat/ToBfloat16, IsSameType/Conditional, the block and
// UB constants, AscendCUtils and the global mask intrinsics, GetDataBlockSizeInBytes,
// InitGlobalMemory (and its older name InitOutput), DataCacheCleanAndInvalid and OOMCheckAddrRange.
#pragma once

#include "ascendopt_twin/attrs.h"

#include <cstring>
#include <string>
#include <type_traits>

#include "ascendopt_twin/kernel/vec.h"

namespace AscendC {

// bfloat16 <-> float of one scalar (exact one way, nearest even the other).
ASCENDOPT_TWIN_FN inline float ToFloat(const bfloat16_t& bVal) { return static_cast<float>(bVal); }
ASCENDOPT_TWIN_FN inline bfloat16_t ToBfloat16(const float& fVal) { return bfloat16_t(fVal); }

// Type traits of the kernel library.
template <class T, class U>
struct IsSameType {
    static constexpr bool value = false;
};
template <class T>
struct IsSameType<T, T> {
    static constexpr bool value = true;
};
template <bool cond, class IfTrue, class IfFalse>
struct Conditional {
    using type = IfTrue;
};
template <class IfTrue, class IfFalse>
struct Conditional<false, IfTrue, IfFalse> {
    using type = IfFalse;
};
struct TrueType {
    static constexpr bool value = true;
};
struct FalseType {
    static constexpr bool value = false;
};

// Block, repeat and buffer constants of the kernel library (910B values; the 310P's UB is 256 KiB).
constexpr int32_t B16_DATA_NUM_PER_BLOCK = 16;
constexpr int32_t B32_DATA_NUM_PER_BLOCK = 8;
constexpr int32_t B32_DATA_NUM_PER_REPEAT = 64;
constexpr int32_t B32_BYTE_SIZE = 4;
constexpr int32_t ONE_BLK_FLOAT_NUM = 8;
constexpr int32_t HALF_FACTOR = 2;
constexpr uint16_t DEFAULT_DATA_COPY_NBURST = 1;
constexpr uint16_t DEFAULT_DATA_COPY_STRIDE = 0;
constexpr int32_t BRCB_BROADCAST_NUMBER = 8;
constexpr uint64_t FULL_MASK = ~0ull;
#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 200
constexpr uint32_t TOTAL_UB_SIZE = 256 * 1024;
#else
constexpr uint32_t TOTAL_UB_SIZE = 192 * 1024;
#endif
// The 910B's L1 (share/soc/ascend910b2.toml, l1); the 310P's is 1 MiB.
#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 200
constexpr uint32_t TOTAL_L1_SIZE = 1024 * 1024;
#else
constexpr uint32_t TOTAL_L1_SIZE = 512 * 1024;
#endif

// Integer helpers of the kernel library, which published kernels call unqualified (they are not
// in the API reference, but the device headers provide them): DivCeil rounds the quotient up,
// AlignUp rounds up to a multiple (Ceil(a, b) below is DivCeil). A zero divisor is an error naming the call.
template <class T, class U>
ASCENDOPT_TWIN_FN constexpr std::common_type_t<T, U> DivCeil(T a, U b) {
    if (b == 0) ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, "DivCeil", "division by zero");
    return (std::common_type_t<T, U>(a) + std::common_type_t<T, U>(b) - 1) / std::common_type_t<T, U>(b);
}
template <class T, class U>
ASCENDOPT_TWIN_FN constexpr std::common_type_t<T, U> AlignUp(T a, U b) {
    if (b == 0) ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, "AlignUp", "alignment 0");
    return DivCeil(a, b) * std::common_type_t<T, U>(b);
}

// Ceil on two integers is DivCeil (kernels call it unqualified; the one-tensor Ceil of the math
// library takes tensors, so the two never compete).
template <class T, class U, class = std::enable_if_t<std::is_arithmetic_v<T> && std::is_arithmetic_v<U>>>
ASCENDOPT_TWIN_FN constexpr std::common_type_t<T, U> Ceil(T a, U b) {
    return DivCeil(a, b);
}

// Bytes of one data block (the unit of DataCopy and of block strides).
ASCENDOPT_TWIN_FN inline constexpr uint32_t GetDataBlockSizeInBytes() { return ONE_BLK_SIZE; }

// Mask register controls as static members (the older spelling of SetVectorMask & co).
struct AscendCUtils {
    template <class T>
    ASCENDOPT_TWIN_FN static void SetMask(int32_t len) {
        SetVectorMask<T>(len);
    }
    template <class T>
    ASCENDOPT_TWIN_FN static void SetMask(uint64_t maskHigh, uint64_t maskLow) {
        SetVectorMask<T>(maskHigh, maskLow);
    }
    template <class T = int16_t>
    ASCENDOPT_TWIN_FN static void SetMaskCount() {
        AscendC::SetMaskCount();
    }
    template <class T = int16_t>
    ASCENDOPT_TWIN_FN static void SetMaskNorm() {
        AscendC::SetMaskNorm();
    }
    // Elements of `typeSize` bytes in one 32-byte block.
    ASCENDOPT_TWIN_FN static uint32_t GetC0Count(uint32_t typeSize) {
        if (typeSize == 0) ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, "AscendCUtils::GetC0Count", "typeSize 0");
        return ONE_BLK_SIZE / typeSize;
    }
    ASCENDOPT_TWIN_FN static uint32_t GetC0Size() { return ONE_BLK_SIZE; }
};

// Fills `size` elements of GM with `value` (on the device: Duplicate in UB and DataCopy out,
// on the MTE3 pipe).
template <class T>
ASCENDOPT_TWIN_FN void InitGlobalMemory(const GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const ascendopt_twin::detail::same_t<T> value) {
    const uint64_t bytes = size * sizeof(T);
    uint8_t* gm = ascendopt_twin::gm_translate(gmWorkspaceAddr.address(), bytes, true, "InitGlobalMemory", gmWorkspaceAddr.origin());
    const T v = value;
    for (uint64_t i = 0; i < size; ++i) ascendopt_twin::raw_copy(gm + i * sizeof(T), &v, sizeof(T));
    ascendopt_twin::account_copy(ascendopt_twin::PipeId::MTE3, "InitGlobalMemory", bytes, 1, nullptr);
}

// The API's older name, which published grad kernels still call (the documentation's sample
// for InitGlobalMemory keeps it in its class name).
template <class T>
ASCENDOPT_TWIN_FN void InitOutput(const GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const ascendopt_twin::detail::same_t<T> value) {
    InitGlobalMemory(gmWorkspaceAddr, size, value);
}

// Data cache maintenance of GM lines that scalar code wrote or will read. The twin's scalar GM
// accesses go straight to memory, so the call orders nothing; it costs one scalar GM access.
enum class CacheLine : uint8_t { SINGLE_CACHE_LINE, ENTIRE_DATA_CACHE };
enum class DcciDst : uint8_t { CACHELINE_ALL, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };
template <class T, CacheLine entireType, DcciDst dcciDst = DcciDst::CACHELINE_ALL>
ASCENDOPT_TWIN_FN void DataCacheCleanAndInvalid(const GlobalTensor<T>& dstTensor) {
    (void)dstTensor;
    ascendopt_twin::account_scalar(nullptr, true);
}
template <class T, CacheLine entireType, DcciDst dcciDst = DcciDst::CACHELINE_ALL>
ASCENDOPT_TWIN_FN void DataCacheCleanAndInvalid(const LocalTensor<T>& dstTensor) {
    (void)dstTensor;
    ascendopt_twin::account_scalar(nullptr, true);
}

// Registers a GM range with the device's out-of-memory checker; every GM access of the twin is
// checked against its allocation anyway (docs/twin.md, "Device memory"), so this records nothing.
template <class T>
ASCENDOPT_TWIN_FN void OOMCheckAddrRange(T* gmAddr, const uint64_t gmSize) {
    (void)gmAddr;
    (void)gmSize;
}

// GetScalarBitcodeValue: the bits of a scalar as the unsigned integer of its width (half 1.0 is
// 0x3C00), which kernels hand to APIs that take a raw pattern (DataCopyPadParams::paddingValue).
// Not in the API reference; our reading from its use in grid_sampler2_d_grad.
template <class T>
ASCENDOPT_TWIN_FN auto GetScalarBitcodeValue(const T& value) {
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8, "GetScalarBitcodeValue takes 8-, 16-, 32- or 64-bit scalars");
    using Bits = std::conditional_t<sizeof(T) == 1, uint8_t,
                                    std::conditional_t<sizeof(T) == 2, uint16_t, std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;
    Bits bits;
    ascendopt_twin::raw_copy(&bits, &value, sizeof(T));
    return bits;
}

}  // namespace AscendC

// The device compiler's mask intrinsics, which kernels call at global scope.
ASCENDOPT_TWIN_FN inline void set_mask_norm() { AscendC::SetMaskNorm(); }
ASCENDOPT_TWIN_FN inline void set_mask_count() { AscendC::SetMaskCount(); }
ASCENDOPT_TWIN_FN inline void set_vector_mask(uint64_t maskHigh, uint64_t maskLow) {
    auto& m = ascendopt_twin::mask_state();
    m.hi = maskHigh;
    m.lo = maskLow;
}

// The device compiler's scalar min and max (eye_fp64, mat_mul_v3: unqualified calls) are in
// cce_intrinsics.h.
