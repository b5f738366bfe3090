// Keywords, scalar types and constants of Ascend C as the twin compiles them with g++.
// Device qualifiers are empty; `half` and `bfloat16_t` are the twin's exact 16-bit floats.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ascendopt_twin/block_constants.h"
#include "ascendopt_twin/fp16.h"

#ifndef __aicore__
#define __aicore__
#endif
#ifndef __global__
#define __global__
#endif
#define __gm__
#define __ubuf__
#define __cbuf__
#define __ca__
#define __cb__
#define __cc__
#define __inout_pipe__(pipe)
#define __in_pipe__(pipe)
#define __out_pipe__(pipe)
#define GM_ADDR uint8_t*
// A variable each core has its own copy of: each core of a launch is a thread of the twin.
#define __BLOCK_LOCAL__ thread_local

using half = ascendopt_twin::Half;
using float16_t = ascendopt_twin::Half;
using bfloat16_t = ascendopt_twin::BFloat16;
using float32_t = float;

// A 4-bit integer (DT_INT4), two to a byte in memory. The twin runs no int4 case (ascendopt has
// no int4 data): kernels that name the type for that path compile.
struct int4b_t {
    int8_t storage = 0;
};

// complex64 as kernels see it (DTYPE_X of a complex64 tensor): two float32 parts. Kernels move
// complex data as float pairs; the vector APIs do not take complex64 itself.
struct complex64 {
    float real = 0;
    float imag = 0;
};

// The device compiler's pipe and event names are global (PipeBarrier<PIPE_V> works with or
// without `using namespace AscendC`, also inside macros); namespace AscendC re-exports them.
enum pipe_t : uint8_t { PIPE_S, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL, PIPE_FIX };
enum event_t : uint8_t { EVENT_ID0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7 };

// The data type codes (DT_FLOAT, DT_FLOAT16, ...) are macros, as CANN's kernel_type.h has them,
// so that `#if ORIG_DTYPE_X == DT_FLOAT16` works: the evaluator defines them after the tiling
// headers (whose host code names ge::DT_*), see kernel_dtype_macros() in eval/builder.cpp.

// The device compiler's branch hints, which kernels use as functions.
#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

// The cores the kernel runs on: each declaration the preprocessor keeps leaves a note "KEY TYPE"
// in the section the harness reads (rt/kernel_type_notes.h), so that one inside a dtype's
// `#if` branch counts only in that dtype's build.
#define ASCENDOPT_KERNEL_TYPE_NOTE(text) \
    __asm__(".pushsection ascendopt_kernel_types,\"a\",@progbits\n.asciz \"" text "\"\n.popsection")
// The kernel library's debug checks and log lines, compiled out of device builds (they act only
// in CANN's CPU-debug build): no effect here either. The twin's own checks are its APIs'.
#define ASCENDC_ASSERT(cond, behavior) \
    do {                               \
    } while (0)
#define KERNEL_LOG(level, ...) \
    do {                       \
    } while (0)

#define KERNEL_TASK_TYPE_DEFAULT(type) ASCENDOPT_KERNEL_TYPE_NOTE("default " #type)
#define KERNEL_TASK_TYPE(key, type) ASCENDOPT_KERNEL_TYPE_NOTE(#key " " #type)

namespace AscendC {

using ::pipe_t;
using ::event_t;
using ::int4b_t;
using ::PIPE_S, ::PIPE_V, ::PIPE_M, ::PIPE_MTE1, ::PIPE_MTE2, ::PIPE_MTE3, ::PIPE_ALL, ::PIPE_FIX;
using ::EVENT_ID0, ::EVENT_ID1, ::EVENT_ID2, ::EVENT_ID3, ::EVENT_ID4, ::EVENT_ID5, ::EVENT_ID6, ::EVENT_ID7;

constexpr int32_t ONE_REPEAT_BYTE_SIZE = 256;
constexpr int32_t DEFAULT_BLK_NUM = 8;
constexpr int32_t DEFAULT_BLK_STRIDE = 1;
constexpr int32_t DEFAULT_REPEAT_STRIDE = 8;
constexpr int32_t HALF_DEFAULT_REPEAT_STRIDE = DEFAULT_REPEAT_STRIDE / 2;
constexpr int32_t ONE_FOURTH_DEFAULT_REPEAT_STRIDE = DEFAULT_REPEAT_STRIDE / 4;
constexpr int32_t MAX_REPEAT_TIMES = 255;
constexpr uint64_t MASK_PLACEHOLDER = 0;

// As the documentation of KERNEL_TASK_TYPE_DEFAULT lists them (the launch's kind: the notes those
// macros leave, rt/kernel_type_notes.h, else the job's kernel_type).
enum KernelMetaType {
    KERNEL_TYPE_AIV_ONLY, KERNEL_TYPE_AIC_ONLY, KERNEL_TYPE_MIX_AIV_1_0, KERNEL_TYPE_MIX_AIC_1_0, KERNEL_TYPE_MIX_AIC_1_1,
    KERNEL_TYPE_MIX_AIC_1_2, KERNEL_TYPE_AICORE, KERNEL_TYPE_VECTORCORE, KERNEL_TYPE_MIX_AICORE, KERNEL_TYPE_MIX_VECTOR_CORE,
    KERNEL_TYPE_MAX
};

// As documented (TPosition): LCM is VECCALC, SHM is SPM; which memory each names is in pipe.h.
enum class TPosition : uint8_t {
    GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM, SHM = SPM, TSCM, C2PIPE2GM, C2PIPE2LOCAL, MAX
};
using QuePosition = TPosition;

enum class RoundMode : uint8_t { CAST_NONE, CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_ODD };
enum class CMPMODE : uint8_t { LT, GT, EQ, LE, GE, NE };
enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };
enum class ReduceOrder : uint8_t { ORDER_VALUE_INDEX, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };
enum class MaskMode : uint8_t { NORMAL, COUNTER };

}  // namespace AscendC
