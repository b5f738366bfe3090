// Block identity, tiling access, assertions and debugging aids of Ascend C.
#pragma once

#include "ascendopt_twin/attrs.h"

#include <cstdio>

#include "ascendopt_twin/kernel/tensor.h"

namespace AscendC {

ASCENDOPT_TWIN_FN inline int64_t GetBlockIdx() { return ascendopt_twin::block_idx(); }
ASCENDOPT_TWIN_FN inline int64_t GetBlockNum() { return ascendopt_twin::block_num(); }

// Kernel printf, as AscendC::printf / PRINTF: formats on stdout, which the evaluator keeps in
// the case's log.
template <class... Args>
ASCENDOPT_TWIN_FN inline void printf(const char* format, Args... args) {
    std::printf(format, args...);
}
template <class... Args>
ASCENDOPT_TWIN_FN inline void PRINTF(const char* format, Args... args) {
    std::printf(format, args...);
}
// In a mixed launch: which AIV of its block the core is, and AIVs (or AICs) per block (core_type.h).
ASCENDOPT_TWIN_FN inline int64_t GetSubBlockIdx() { return ascendopt_twin::sub_block_idx(); }
ASCENDOPT_TWIN_FN inline int64_t GetTaskRation() { return ascendopt_twin::task_ratio(); }

// The debug dump's set-up (DumpTensor's GM area on the device): nothing to set up here, where
// DumpTensor prints.
ASCENDOPT_TWIN_FN inline void InitDump(bool mixFlag, __gm__ uint8_t* dumpStartAddr, uint32_t dumpSize) { (void)mixFlag, (void)dumpStartAddr, (void)dumpSize; }

template <class T>
ASCENDOPT_TWIN_FN void DumpTensor(const LocalTensor<T>& tensor, uint32_t desc, uint32_t count) {
    std::printf("DumpTensor block=%lld desc=%u:", static_cast<long long>(GetBlockIdx()), desc);
    for (uint32_t i = 0; i < count && i < tensor.GetSize(); ++i) std::printf(" %g", double(float(tensor.data()[i])));
    std::printf("\n");
}

}  // namespace AscendC

// The device compiler also knows the block queries at global scope (get_block_idx and the
// Ascend C names, which kernels call unqualified, inside ASSERT among others).
using AscendC::GetBlockIdx;
using AscendC::GetBlockNum;
ASCENDOPT_TWIN_FN inline int64_t get_block_idx() { return AscendC::GetBlockIdx(); }
ASCENDOPT_TWIN_FN inline int64_t get_block_num() { return AscendC::GetBlockNum(); }

// ... and the per-core variable block_num, which kernels read as a value (block_idx, its
// companion, is in cce_intrinsics.h). Each twin core is a thread, so it is a read-only object
// that converts to the calling core's GetBlockNum().
namespace ascendopt_twin::detail {
struct BlockNumVariable {
    ASCENDOPT_TWIN_FN operator int64_t() const { return AscendC::GetBlockNum(); }
};
}  // namespace ascendopt_twin::detail
inline constexpr ascendopt_twin::detail::BlockNumVariable block_num{};

// The tiling struct type is the one the host registered with REGISTER_TILING_DATA_CLASS;
// the build passes its qualified name as ASCENDOPT_TILING_TYPE.
#define GET_TILING_DATA_WITH_STRUCT(type, name, tiling) \
    type name;                                          \
    ::ascendopt_twin::load_tiling(&name, sizeof(name), (tiling))
// (Deliberately no #ifdef here: this header is precompiled once for every operator.)
#define GET_TILING_DATA(name, tiling) GET_TILING_DATA_WITH_STRUCT(ASCENDOPT_TILING_TYPE, name, tiling)
#define GET_TILING_DATA_MEMBER(type, member, var, tiling) \
    decltype(type::member) var;                           \
    do {                                                  \
        type ascendopt_full_;                             \
        ::ascendopt_twin::load_tiling(&ascendopt_full_, sizeof(ascendopt_full_), (tiling)); \
        var = ascendopt_full_.member;                     \
    } while (0)
#define TILING_KEY_IS(key) (::ascendopt_twin::tiling_key() == static_cast<uint64_t>(key))

// A launch written `kernel<<<blockDim, l2ctrl, stream>>>(args)` in kernel source is CANN's host-side
// launch (the *_do wrappers some operators keep for their own tests). g++ cannot parse the
// chevrons, so the build rewrites it to chevron_launch("kernel", blockDim, l2ctrl, stream)(args).
// The twin launches kernels only through its harness and nothing calls such a wrapper: one that
// runs anyway is a run_failed error naming the kernel.
namespace ascendopt_twin {
struct ChevronLaunch {
    const char* kernel;
    template <class... Args>
    ASCENDOPT_TWIN_FN void operator()(Args&&...) const {
        fail(ErrorKind::run_failed, "<<<>>>",
             std::string("the code launched kernel ") + kernel + " with <<<...>>>: on the twin only the harness launches kernels");
    }
};
template <class... LaunchArgs>
ASCENDOPT_TWIN_FN inline ChevronLaunch chevron_launch(const char* kernel, LaunchArgs&&...) {
    return ChevronLaunch{kernel};
}
}  // namespace ascendopt_twin

namespace AscendC {
// Trap stops the kernel with an error on the device (kernels call it on invalid input).
ASCENDOPT_TWIN_FN inline void Trap() {
    ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, "Trap", "the kernel called Trap(): the device stops it with an error");
}
}  // namespace AscendC

// ASSERT is CANN's debug-build assertion: the device build compiles it to nothing, and
// published kernels rely on that (mse_loss writes `tileNum ASSERT(...);`, mul_sigmoid leaves
// the semicolon out). The kernel assertion the device keeps is assert(expr[, fmt, args...])
// (ascendc_assert), below.
#ifndef ASSERT
#define ASSERT(...)
#endif
// ASSERT_MSG(expr, message) is the same debug-build check with a message: compiled out too.
#ifndef ASSERT_MSG
#define ASSERT_MSG(...)
#endif

namespace ascendopt_twin::detail {
// The kernel's assert(expr[, fmt, args...]): a false expr ends the case (run_failed) with the
// condition, the place and the formatted message, as the device prints it and stops.
template <class... Args>
ASCENDOPT_TWIN_FN inline void kernel_assert(bool ok, const char* text, const char* file, int line, const char* fmt = nullptr, Args... args) {
    if (ok) return;
    std::string message = std::string("assertion `") + text + "' failed at " + file + ":" + std::to_string(line);
    if (fmt) {
        char buf[512];
        if constexpr (sizeof...(Args) == 0) std::snprintf(buf, sizeof buf, "%s", fmt);
        else std::snprintf(buf, sizeof buf, fmt, args...);
        message += ": " + std::string(buf);
    }
    fail(ErrorKind::run_failed, "assert", message);
}
}  // namespace ascendopt_twin::detail

// Kernels call assert with a format and arguments, which the C library's assert does not take.
#undef assert
#define assert(cond, ...) ::ascendopt_twin::detail::kernel_assert(static_cast<bool>(cond), #cond, __FILE__, __LINE__, ##__VA_ARGS__)
#define ascendc_assert(cond, ...) ::ascendopt_twin::detail::kernel_assert(static_cast<bool>(cond), #cond, __FILE__, __LINE__, ##__VA_ARGS__)
#define trap() ::ascendopt_twin::fail(::ascendopt_twin::ErrorKind::run_failed, "trap", "kernel called trap()")

namespace ascendopt_twin {
// Named in GET_TILING_DATA when op_host registers no tiling class; being incomplete, it makes
// the compiler say so.
struct NoTilingClassRegistered;
}  // namespace ascendopt_twin
