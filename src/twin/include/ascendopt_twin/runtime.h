// The boundary between the Ascend C twin headers (compiled into every operator) and the
// twin runtime library (compiled once, linked into every operator binary).
//
// Contract: every function here acts on the calling thread's core, which the launcher
// (or a CoreScope in tests) has set up; calling them on a thread with no core is a
// run_failed error. Errors never return: `fail` hands the error to the installed handler,
// which in an operator binary records the verdict and ends the process, and in unit tests
// throws TwinError.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace ascendopt_twin {

// The two verdicts the twin itself can give; the evaluator maps them to EvalStatus.
enum class ErrorKind { run_failed, resource_exceeded };

// `api` names the Ascend C call that failed (e.g. "DataCopy"); `message` says what was wrong,
// with the values involved, and what to do about it.
[[noreturn]] void fail(ErrorKind kind, const std::string& api, const std::string& message);

// Pipes of one AI Core. The timing model (rt/timing.h, docs/timing-model.md) places every
// API call on one of them; S also runs the kernel's own scalar code.
enum class PipeId : uint8_t { S, V, MTE2, MTE3, count };

// --- accounting: each call is one instruction for the timing model -------------------------
// A DMA on MTE2 (GM->UB) or MTE3 (UB->GM): `bursts` block rows, `ub` the UB side.
void account_copy(PipeId pipe, const char* kind, uint64_t bytes, uint32_t bursts, const void* ub);
// A vector instruction over `bytes` of its widest operand, touching the given UB tensors.
void account_vector(const char* kind, uint64_t bytes, const void* dst, const void* src0 = nullptr,
                    const void* src1 = nullptr);
// A scalar read or write of UB (`ub` non-null) or GM.
void account_scalar(const void* ub, bool write);
// Queue hand-offs of the UB buffer starting at `slot`.
enum class QueueOp : uint8_t { alloc, enque, deque, free };
void account_queue(QueueOp op, const void* slot);
// UB buffers of a queue or TBuf (`kind`: "TQue" or "TBuf"), so that instructions can be matched
// to them and errors can name them.
void account_ub_slots(const void* base, uint32_t count, uint32_t len, const char* kind);
// An access by `api` to `bytes` from `start`, in a `which` tensor ("destination", "source")
// whose UB buffer holds `buffer_bytes` from `start`. Past the UB's end it is resource_exceeded
// (the device faults too). Past the buffer but inside the UB it is an error under strict UB
// checking (--strict-ub), and otherwise proceeds, as on the device, where it reads or
// overwrites the next buffer, and is reported as a note.
void check_ub_access(const char* api, const char* which, const void* start, uint64_t bytes, uint64_t buffer_bytes);
// Which buffer `ub` lies in, for error messages: "buffer 2 of 2 of the TQue set up by the 1st
// InitBuffer (UB bytes 8192..16383), at byte 32 of it".
std::string describe_ub(const void* ub);
// SetFlag / WaitFlag between two pipes (a pipe of -1 is not modeled), PipeBarrier.
void account_flag(bool set, int src_pipe, int dst_pipe, int32_t id);
void account_barrier(bool all_pipes);

// --- the current core -------------------------------------------------------------------
int64_t block_idx();
int64_t block_num();
uint64_t tiling_key();
uint8_t* ub_base();
uint32_t ub_size();    // the UB's bytes
uint64_t ub_window();  // the UB offsets InitBuffer may hand out (past ub_size they fault when used)

// Translates a device GM address range to the host memory behind it. `write` says the
// range will be written. A range outside every GM buffer is a run_failed error naming `api`.
uint8_t* gm_translate(uint64_t device_addr, uint64_t bytes, bool write, const char* api);

// Copies the tiling bytes the host tiling function produced into `dst`.
void load_tiling(void* dst, size_t size, const uint8_t* device_tiling_addr);

// Barrier across all blocks of the launch. A block that ends while others wait is an error.
void sync_all();

// Vector mask register of the current core.
struct MaskState {
    bool counter_mode = false;
    uint64_t lo = ~0ull;
    uint64_t hi = ~0ull;
};
MaskState& mask_state();

// Value and index of the last ReduceMax/ReduceMin, for GetReduceMaxMinCount.
struct ReduceState {
    double value = 0;
    uint32_t index = 0;
};
ReduceState& reduce_state();

// The TPipe most recently constructed on this core (GetTPipePtr), or null.
void* current_pipe();
void set_current_pipe(void* pipe);

}  // namespace ascendopt_twin
