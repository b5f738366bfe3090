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

// Pipes of one core. The timing model (rt/timing.h, docs/timing-model.md) places every API
// call on one of them; S also runs the kernel's own scalar code. A vector core (AIV) uses S, V,
// MTE2 (GM->UB) and MTE3 (UB->GM); a cube core (AIC) uses S, MTE2 (GM->L1), MTE1 (L1->L0A/L0B/
// BT/FB), M (the cube: Mmad), FIX (L0C->GM/L1, Fixpipe) and MTE3 (L1->GM).
enum class PipeId : uint8_t { S, V, MTE2, MTE3, MTE1, M, FIX, count };

// The two kinds of core of a 910B AI Core (docs/twin.md "Cores"): a vector core (AIV, with a
// UB) and a cube core (AIC, with L1, L0A, L0B, L0C, the bias table BT and the Fixpipe buffer FB).
enum class CoreKind : uint8_t { aiv, aic };
const char* core_kind_name(CoreKind kind);  // "AIV" / "AIC"

// On-chip memories. Each has a window of k_mem_window_bytes in the core's address range; the
// memories the core has are mapped from the window's start for their SoC size, the rest of the
// window is PROT_NONE (an access past a memory's end faults, as InitBuffer never checks).
enum class Mem : uint8_t { UB, L1, L0A, L0B, L0C, BT, FB, count };
constexpr uint64_t k_mem_window_bytes = uint64_t(16) << 20;
const char* mem_name(Mem m);  // "UB", "L1", "L0A", "L0B", "L0C", "BT", "FB"

// --- accounting: each call is one instruction for the timing model -------------------------
// A DMA on MTE2 (GM->UB/L1) or MTE3 (UB/L1->GM): `bursts` block rows, `ub` the on-chip side.
void account_copy(PipeId pipe, const char* kind, uint64_t bytes, uint32_t bursts, const void* ub);
// A vector instruction over `bytes` of its widest operand, touching the given UB tensors. On a
// cube core it is an error, except the one on-chip copy copy.h routes here, DataCopy between
// LocalTensors, which on an AIC is the MTE1 copy L1 -> BT or L1 -> FB (kind "copy_ub_to_ub").
void account_vector(const char* kind, uint64_t bytes, const void* dst, const void* src0 = nullptr,
                    const void* src1 = nullptr);
// A cube-side instruction (rt/timing.h: MTE1 loads, M, FIX) that the API has already executed:
// `pipe` and `kind` as for the others, `cycles` its duration on the pipe as the API computed it
// from the SoC's cube parameters (cube_timing(); the pipe's fixed set-up is added by the timing
// model), `bytes` moved, and the on-chip tensors it writes (`dst`) and reads (`src`, up to
// three). `gm_bytes` > 0 makes it a DMA into GM (FIX -> GM), timed like MTE3 with the GM
// bandwidth share and the DMA latency. The calling core must be an AIC, or the API names
// itself and the core in the error.
struct CubeOperands {
    const void* dst = nullptr;
    const void* src0 = nullptr;
    const void* src1 = nullptr;
    const void* src2 = nullptr;
};
void account_cube(PipeId pipe, const char* kind, double cycles, uint64_t bytes, const CubeOperands& operands, uint64_t gm_bytes = 0);
// The cube's timing parameters, for the APIs that compute their own durations.
struct CubeTiming {
    double mte1_l0a_bytes_per_cycle = 256;  // L1 -> L0A
    double mte1_l0b_bytes_per_cycle = 128;  // L1 -> L0B
    double mte1_bt_bytes_per_cycle = 64;    // L1 -> BT / FB
    double mte1_setup_cycles = 0;           // per MTE1 instruction
    double m_issue_cycles = 0;              // per Mmad
    double m_cycles_per_fractal = 1;        // one 16 x (32 bytes of K) x 16 block per cycle
    double fix_bytes_per_cycle = 64;        // L0C -> L1 (to GM the DMA bandwidth applies too)
    double fix_setup_cycles = 0;            // per Fixpipe
};
const CubeTiming& cube_timing();
// A scalar read or write of `bytes` of UB (`ub` non-null) or of GM.
void account_scalar(const void* ub, bool write, uint32_t bytes = 1);
// Queue hand-offs of the on-chip buffer of `len` bytes starting at `slot`. `producer` and
// `consumer` are the PipeIds the queue's position hands data between (VECIN: MTE2 -> V; -1:
// none): EnQue/DeQue order the consumer after the producer, FreeTensor/AllocTensor the reverse
// (the hazard checker, rt/hazard.h).
enum class QueueOp : uint8_t { alloc, enque, deque, free };
void account_queue(QueueOp op, const void* slot, uint32_t len = 0, int producer = -1, int consumer = -1);
// A high-level API's own synchronisation between the steps it issues (the device library
// sets these flags itself): every pipe follows what was issued so far. Only the hazard
// checker sees it; the timing model already orders the API's steps by their buffers.
void order_internal_steps();
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
// As GetBlockIdx/GetBlockNum/GetSubBlockIdx/GetTaskRatio define them for the launch's kernel
// type: in a mixed 1:2 launch of N blocks the AIC of block b has index b, its two AIVs 2b and
// 2b+1 (sub-blocks 0 and 1), and every core sees GetBlockNum() == N.
int64_t block_idx();
int64_t block_num();
int64_t sub_block_idx();
int64_t sub_block_num();  // AIVs (on an AIV) or AICs (on an AIC) per block: GetSubBlockNum
int64_t task_ratio();     // GetTaskRatio
CoreKind core_kind();
uint64_t tiling_key();
uint8_t* ub_base();    // the start of the UB window (on an AIC, a shared PROT_NONE one: using it faults)
uint32_t ub_size();    // the UB's bytes (0 on an AIC)
uint64_t ub_window();  // the UB offsets InitBuffer may hand out (past ub_size they fault when used)
uint8_t* mem_base(Mem m);  // the start of memory m's window on this core
uint32_t mem_size(Mem m);  // memory m's bytes on this core (0: this kind of core has none)
// Which memory's window `p` lies in (false: none) and its byte offset there.
bool mem_of(const void* p, Mem& m, uint64_t& offset);
// Fails unless the calling core is of `kind`: "<api>: a cube API on an AIV core (block 3) ...".
void require_core(CoreKind kind, const char* api);

// Translates a device GM address range to the host memory behind it. `write` says the
// range will be written. A range outside every GM buffer is a run_failed error naming `api`;
// so is one outside the tensor `origin` lies in, when given (GlobalTensor::origin()).
uint8_t* gm_translate(uint64_t device_addr, uint64_t bytes, bool write, const char* api, uint64_t origin = 0);
// Checks a write of the range as gm_translate does, without counting it as written (the rows
// of a strided copy are counted as they are written).
void gm_check_write(uint64_t device_addr, uint64_t bytes, const char* api, uint64_t origin = 0);

// Copies the tiling bytes the host tiling function produced into `dst`.
void load_tiling(void* dst, size_t size, const uint8_t* device_tiling_addr);

// Barrier across all blocks of the launch. A block that ends while others wait is an error.
// `aiv_only`: in a mixed launch, only the AIVs take part (SyncAll<true>); otherwise every core.
void sync_all(bool aiv_only = true);

// CrossCoreSetFlag / CrossCoreWaitFlag (kernel/cross_core.h): modes 0 (all AICs or all AIVs of
// the launch), 1 (the AIVs of one block), 2 (the AIC of a block and its AIVs). A wait blocks
// the core until its counter for `flag` is positive; one that no core can satisfy any more is
// an error naming the flag, as it hangs an NPU. `pipe` is the PipeId whose work the set waits
// for (the timing model's ready time).
void cross_core_set(int mode, int pipe, uint16_t flag);
void cross_core_wait(uint16_t flag);

// The Matmul service (kernel/matmul_*.h, docs/twin.md "The Matmul API"): on the 910B a Matmul
// object of vector code is a client of the AIC of its AI Core, which runs the cube work. An AIV
// calls cube_service_call to run `fn(ctx, server)` on its block's AIC, whose thread serves in
// cube_service_serve (REGIST_MATMUL_OBJ) with `server` its own state. The call blocks the AIV's
// thread until the AIC is done and returns the AIC's timeline time then (the AIC starts the work
// no earlier than the AIV's issue time); cube_wait_until makes the calling core's timeline wait
// for such a time. No AIC in the launch, or an AIC that returned without serving, is run_failed.
using CubeServiceFn = void (*)(void* ctx, void* server);
double cube_service_call(CubeServiceFn fn, void* ctx, const char* api);
// Serves the requests of the block's AIVs until every one of them has returned.
void cube_service_serve(void* server);
void cube_wait_until(double t, const char* what);
// When what `pipe` of the calling core has issued so far is done and visible to another core
// (the time a CrossCoreSetFlag after that pipe would raise its flag): the AIC's asynchronous
// Matmul marks each block of C ready with it.
double pipe_visible_time(PipeId pipe);
// The AIVs of the calling core's block (0 in an AIV-only or AIC-only launch, or outside one).
int64_t block_aiv_count();

// Cube registers of the current core that configuration APIs set and later instructions read.
struct CubeState {
    bool hf32 = false;             // SetHF32Mode
    bool hf32_round_to_zero = false;  // SetHF32TransMode(NEAREST_ZERO)
    // SetFmatrix: feature map height/width in L1 and padding (left, right, top, bottom).
    uint16_t fmatrix_h = 0, fmatrix_w = 0;
    uint8_t fmatrix_pad[4] = {0, 0, 0, 0};
    bool fmatrix_b = false;        // the right-matrix (FMATRIX_RIGHT) registers were set
    uint16_t fmatrix_b_h = 0, fmatrix_b_w = 0;
    uint8_t fmatrix_b_pad[4] = {0, 0, 0, 0};
    uint64_t load3d_padding = 0;   // SetLoadDataPaddingValue: the raw bits, reinterpreted per type
    uint32_t load3d_boundary = 0;  // SetLoadDataBoundary: L1 bytes past which Load3D reads padding (0: none)
    // SetLoadDataRepeat
    uint16_t repeat_stride = 0;
    uint8_t repeat_time = 1, repeat_mode = 0;
    // SetFixpipeNz2ndFlag
    uint16_t nz2nd_num = 1, nz2nd_src_stride = 0, nz2nd_dst_stride = 0;
    uint64_t fix_quant_scalar = 0;     // SetFixpipePreQuantFlag
    const void* fix_quant_table = nullptr;  // SetFixPipeConfig: the per-channel table in FB (or L1)
};
CubeState& cube_state();

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
