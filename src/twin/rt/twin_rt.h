// The twin runtime's own interface, for the launcher, the harness and unit tests.
// Kernel code never includes this; it sees only ascendopt_twin/runtime.h.
#pragma once

#include <atomic>
#include <array>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "ascendopt_twin/host/op_def.h"
#include "ascendopt_twin/runtime.h"
#include "ascendopt_twin/soc.h"
#include "hazard.h"
#include "timing.h"

namespace ascendopt_twin {

// Thrown by the default error handler (unit tests) and, on a core's thread, by the harness's,
// which ends the process for errors elsewhere.
struct TwinError : std::runtime_error {
    TwinError(ErrorKind k, std::string a, const std::string& m)
        : std::runtime_error(a + ": " + m), kind(k), api(std::move(a)), message(m) {}
    ErrorKind kind;
    std::string api;
    std::string message;
};

using ErrorHandler = std::function<void(ErrorKind, const std::string& api, const std::string& message)>;
// Replaces the handler `fail` calls; the handler must not return (throw or exit).
void set_error_handler(ErrorHandler handler);

const char* error_kind_name(ErrorKind kind);

// A launch reports one failure whichever core's thread reached its failure first: the first
// failure of the lowest core (launch order) that failed on its own, else the lowest that failed
// only because another core had failed (a SyncAll or flag no core can complete any more). The
// cores before the lowest failed one therefore run to their end or their failure; those after
// it stop at their next data access (CoreStopped). fail() remembers, per thread, the first error
// it raised, so kernel code that catches the exception cannot turn a failed core into a
// finished one.
struct RaisedFailure {
    std::exception_ptr error;
    bool consequence = false;  // raised by fail_in_sync(true, ...)
};
// For an error handler: whether the error it handles is a consequence (fail_in_sync).
bool raising_consequence();
// Returns and forgets the calling thread's first failure since the last call.
RaisedFailure take_raised_failure();
// fail() for a synchronization that cannot complete; `consequence`: because a core had failed.
[[noreturn]] void fail_in_sync(bool consequence, ErrorKind kind, const std::string& api, const std::string& message);

// The address range that holds one of a core's memories (UB, L1, ...): its bytes, then unmapped
// space for buffers that InitBuffer placed past its end (docs/twin.md, "On-chip memory"). A
// core's address range is one such window per memory (runtime.h Mem), in Mem order.
constexpr uint64_t k_ub_window_bytes = k_mem_window_bytes;
constexpr uint64_t k_core_window_bytes = k_mem_window_bytes * uint64_t(Mem::count);
// For the fault handler: the report for a fault at `addr` in the current core's address range
// (past a memory's end, or in a memory this kind of core lacks), or nullopt when `addr` is elsewhere.
std::optional<std::string> ub_fault_report(uint64_t addr);

// A scalar access of the kernel's own code through a pointer (the kernel-address
// instrumentation of rt/harness_scalar_access.cpp reports them all): GM accesses are checked
// like GlobalTensor::GetValue/SetValue (tensor bounds, allocation padding) and charged as
// scalar GM accesses, UB accesses are charged as scalar UB accesses and must stay inside the
// UB, anything else (the stack, host memory) passes.
void scalar_access(const void* p, uint64_t bytes, bool write);
// Whether [addr, addr + bytes) lies in the program's static data (the kernel's `__gm__`
// constant tables live there; rt/program_data.cpp).
bool in_program_data(uint64_t addr, uint64_t bytes);

// Whose code the process runs, for crash reports: a fault during the tiling function is the
// host code's, one on a block thread the kernel's.
enum class RunningCode { harness, host_tiling };
void set_running_code(RunningCode code);
RunningCode running_code();
// The block the calling thread runs, or -1 when it is no kernel block (async-signal-safe).
int64_t current_block_or_none();
// The calling thread's core in its launch's order (CoreIdentity::sync_index), or -1.
int64_t current_core_or_none();

// Instruction accounting of one core.
struct InstrCounts {
    uint64_t count[size_t(PipeId::count)] = {};
    uint64_t bytes[size_t(PipeId::count)] = {};
    std::map<std::string, uint64_t> by_kind;
    void merge(const InstrCounts& o);
};

class GmSpace;
class CoreTimeline;
class LaunchSync;

// Which cores a launch starts (KERNEL_TASK_TYPE_DEFAULT's KERNEL_TYPE_*; the harness takes it
// from the job's "kernel_type"): AIVs only, AICs only, or per block one AIC with two (1:2) or
// one (1:1) AIVs. The MIX 1:0 kinds start one kind of core, as aic / aiv do.
enum class KernelType : uint8_t { aiv, aic, mix_aic_1_2, mix_aic_1_1, mix_aic_1_0, mix_aiv_1_0 };
// "aiv", "aic", "mix_aic_1_2", "mix_aic_1_1", "mix_aic_1_0", "mix_aiv_1_0".
const char* kernel_type_name(KernelType t);
bool kernel_type_from_name(const std::string& name, KernelType& t);

// Who a core is in its launch (GetBlockIdx and the rest, runtime.h).
struct CoreIdentity {
    CoreKind kind = CoreKind::aiv;
    int64_t sub_block_idx = 0;
    int64_t sub_block_num = 1;
    int64_t task_ratio = 1;
    size_t sync_index = 0;  // this core in its LaunchSync
};

// The same launch timed under another SoC description as well (a sensitivity re-timing): its
// own timeline on every core beside the main one, fed the same instructions. It must describe
// the same chip (cores, memories, clock); only the timing parameters differ.
struct TimingVariant {
    const SocSpec* soc = nullptr;
    DmaRates dma;  // set by launch
};

struct LaunchOptions {
    bool timing = true;               // model time (off: functional run only)
    bool trace = false;               // keep per-instruction events for a Chrome trace
    DmaRates dma;                     // this core's share of HBM and L2; unset: the SoC's per-core figures
    // Other timing models of the same run (timing on only); SyncAll meets each at its own time.
    // A core that takes a time from another core's main timeline (cross-core flags, the Matmul
    // service) or issues cube work, whose cycles its caller computed from the main SoC, drops
    // them: the launch then reports no variant latencies and the caller times each variant in a
    // run of its own.
    std::vector<TimingVariant> timing_variants;
    // Run each block only up to its first data access (GM access, vector instruction, scalar UB
    // access, SyncAll): enough to execute the tiling read and every InitBuffer, so UB overflow
    // shows at the cost of a few microseconds per block. Outputs are not written.
    bool preflight = false;
    // An access past its tensor's UB buffer (inside the UB) is an error, not a note (--strict-ub).
    bool strict_ub = false;
    // Track each instruction's pipe and on-chip bytes and report accesses no flag, barrier or
    // queue hand-off orders (rt/hazard.h); off, the kernel runs without the bookkeeping.
    bool check_races = false;
    KernelType kernel_type = KernelType::aiv;
};

// An access that ran past its tensor's UB buffer into the rest of the UB (check_ub_access):
// per API and buffer, the furthest one.
struct UbOverrun {
    std::string api;
    std::string which;   // "destination", "source", ...
    std::string buffer;  // describe_ub of the tensor's start
    uint64_t bytes_past = 0;
};

// Thrown at a block's first data access in a preflight launch; ends that block normally.
struct PreflightStop {};
// Thrown at a core's next data access once a lower core of its launch has failed: that failure
// is the one the launch reports, so the core's own future does not matter.
struct CoreStopped {};

// Sets up a core on the calling thread for its lifetime: its memories, block index, mask and
// cube registers. `sync` (null: a lone core) is what SyncAll and the cross-core flags wait on.
class CoreScope {
public:
    CoreScope(const SocSpec& soc, int64_t block_idx, int64_t block_num, uint64_t tiling_key, GmSpace* gm,
              LaunchSync* sync = nullptr, const LaunchOptions& options = {}, const CoreIdentity& who = {});
    ~CoreScope();
    CoreScope(const CoreScope&) = delete;
    CoreScope& operator=(const CoreScope&) = delete;
    const InstrCounts& counts() const;
    CoreTimeline* timeline() const;  // null when timing is off
    // Each timing variant's end of the core's work (LaunchOptions::timing_variants), after
    // finish(); empty when there are none or the core dropped them.
    std::vector<double> variant_end_cycles() const;
    uint32_t ub_bytes_used() const;  // high-water mark of InitBuffer allocations in UB
    uint32_t mem_bytes_used(Mem m) const;  // ... in memory m
    std::vector<UbOverrun> ub_overruns() const;
    // The races the hazard checker saw on this core (empty when it was off) and how many more it dropped.
    std::vector<Race> races() const;
    uint64_t races_dropped() const;
    // Charges the kernel's remaining scalar work and returns the core's end time in cycles.
    double finish();

    struct State;  // defined in core.cpp

private:
    std::unique_ptr<State> m_state;
};

// How device memory surrounds each tensor (docs/twin.md, "Device memory"). `pool`: as the CANN
// runtime's memory pools lay it out, each tensor in a block of ALIGN_UP(bytes + 32, 512) bytes
// placed back to back, so an access past a tensor's end but inside its block lands in padding
// (allowed, noted, reads return poison) and one past the block lands in the next tensor (an
// error that names it). `strict`: no padding; a write past the end fails, a read may reach the
// end of its 32-byte block.
enum class GmLayout { pool, strict };

// Device GM: a reservation whose tensors are mapped at their device addresses, so that kernel
// code may read and write them through plain pointers, as the device allows (each such access
// is checked and charged, rt/scalar_access.cpp); the API reaches them through translate().
// Addresses past the last tensor are unmapped.
class GmSpace {
public:
    GmSpace(uint64_t capacity_bytes, GmLayout layout = GmLayout::pool);
    ~GmSpace();
    GmSpace(const GmSpace&) = delete;
    GmSpace& operator=(const GmSpace&) = delete;

    // The bytes one tensor of `bytes` occupies in `layout`, padding included.
    static uint64_t footprint(uint64_t bytes, GmLayout layout);

    // Allocates a tensor of `bytes` after the previous one; returns its device address. Its
    // padding holds poison (0xFF bytes). `name` appears in errors and notes.
    uint8_t* add(const std::string& name, uint64_t bytes);
    // Host memory behind the tensor at `device_addr` (its start).
    uint8_t* host(const uint8_t* device_addr);
    // Host memory behind [addr, addr + bytes) for `api`; an access outside the tensor's
    // allocation is a run_failed error naming the tensor it would reach. `origin`, when not 0,
    // is where the GlobalTensor making the access was set up (SetGlobalBuffer): the access must
    // stay inside that tensor's allocation, even where another tensor follows it.
    uint8_t* translate(uint64_t addr, uint64_t bytes, bool write, const char* api, uint64_t origin = 0);
    // Name and offset of the tensor whose allocation holds `addr`, for crash reports.
    bool describe(uint64_t addr, std::string& name, uint64_t& offset) const;
    // The message for an address in no tensor's allocation: which allocation it lies past.
    std::string outside_every_allocation(uint64_t addr) const;
    bool contains(uint64_t addr) const;
    // Accesses that reached into allocation padding: per tensor and direction, the furthest
    // one past the tensor's end and the API that made it.
    struct PaddingNote {
        std::string tensor;
        std::string api;
        bool write = false;
        uint64_t bytes_past_end = 0;
    };
    std::vector<PaddingNote> padding_notes() const;
    // The bytes of every tensor of the call: the launch's working set in GM.
    uint64_t tensor_bytes() const;
    // Checks a write of [addr, addr + bytes) as translate() does, without counting its bytes
    // as written: for an API that checks a strided range whole before writing its rows.
    void check_write(uint64_t addr, uint64_t bytes, const char* api, uint64_t origin = 0);

    // Output tensors whose writes are counted (before the launch): every byte a write reaches
    // through translate() is marked. An output element that the kernel never writes holds
    // whatever the device's memory held; the evaluator reports it whatever its value.
    void track_writes(const uint8_t* device_addr);
    struct Unwritten {
        uint64_t bytes = 0;       // of the tensor, never written
        uint64_t first_byte = 0;  // the first of them
    };
    Unwritten unwritten(const uint8_t* device_addr) const;

private:
    struct Buffer {
        std::string name;
        uint64_t addr;        // device address = host address of its bytes
        uint64_t bytes;       // the tensor
        uint64_t allocated;   // the tensor and its padding
        // One bit per byte of the tensor when its writes are tracked; cores write at once.
        std::unique_ptr<std::atomic<uint64_t>[]> written;
    };
    void mark_written(const Buffer& b, uint64_t off, uint64_t end);
    uint8_t* checked(uint64_t addr, uint64_t bytes, bool write, const char* api, uint64_t origin, const Buffer*& b);
    const Buffer* find(uint64_t addr) const;
    const Buffer* next_after(const Buffer& b) const;
    [[noreturn]] void fail_outside(const Buffer& b, uint64_t off, uint64_t bytes, bool write, const char* api) const;
    void note_padding(const Buffer& b, uint64_t past_end, bool write, const char* api);

    GmLayout m_layout;
    uint8_t* m_base = nullptr;
    uint64_t m_capacity = 0;
    uint64_t m_next = 0;
    std::vector<std::unique_ptr<Buffer>> m_buffers;
    mutable std::mutex m_notes_mutex;  // blocks run on threads of their own
    std::map<std::pair<std::string, bool>, PaddingNote> m_padding;  // by (tensor, write)
};

// What the cores of one launch wait for (launch.cpp): SyncAll barriers and the cross-core
// flags (runtime.h cross_core_set). Times are the cores' timeline cycles: a barrier releases at
// the latest arrival, a flag counter at the latest set that raised it. A wait that no running
// core can end any more (every core still running waits, or a barrier's participant has
// returned) is a run_failed error naming the waiting core, as it hangs an NPU.
class LaunchSync {
public:
    struct Core {
        CoreKind kind;
        int64_t block;   // GetBlockIdx
        int64_t group;   // the launch block (AI Core) it belongs to
        int64_t sub;     // GetSubBlockIdx
    };
    explicit LaunchSync(std::vector<Core> cores);
    ~LaunchSync();
    LaunchSync(const LaunchSync&) = delete;
    LaunchSync& operator=(const LaunchSync&) = delete;
    // SyncAll: `aiv_only` joins the cores of the caller's kind, otherwise every core.
    // `ready`: when the core is ready under the main timing model, then under each timing
    // variant it follows; returns the release time of each that every core followed.
    std::vector<double> barrier(size_t core, bool aiv_only, const std::vector<double>& ready);
    void set_flag(size_t core, int mode, uint16_t flag, double ready);
    // Returns the time the flag was raised.
    double wait_flag(size_t core, uint16_t flag);
    // The Matmul service (runtime.h cube_service_call): an AIV's request to the AIC of its
    // block, which the AIC takes in service_take (null: every AIV of the block has returned) and
    // completes with service_done at its time `t`; service_call returns that time.
    struct ServiceRequest {
        CubeServiceFn fn = nullptr;
        void* ctx = nullptr;
        double issued = 0;
        size_t from = 0;
        double done_at = 0;
        bool done = false;
    };
    double service_call(size_t core, ServiceRequest& request, const char* api);
    ServiceRequest* service_take(size_t core);
    void service_done(ServiceRequest* request, double t);
    size_t aivs_in_block(size_t core) const;
    // The core's kernel returned, or failed (`failed`): from then on a synchronization that
    // cannot complete fails as a consequence (fail_in_sync).
    void finish(size_t core, bool failed = false);
    // Whether a core before `core` in launch order has failed (lock-free: data accesses ask).
    bool outranked(size_t core) const;
    std::string describe(size_t core) const;  // "AIV block 3 (sub-block 1)"

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

// What the timing model says about one core of the launch.
struct BlockTiming {
    CoreKind kind = CoreKind::aiv;
    int64_t block = 0;      // GetBlockIdx
    int64_t sub_block = 0;  // GetSubBlockIdx
    double start_cycles = 0;  // when its physical core starts it (blocks beyond the cores run in waves)
    double end_cycles = 0;    // its own duration
    std::array<PipeStats, k_pipes> pipes{};
    uint64_t basic_blocks = 0;
    std::vector<TraceEvent> trace;
    uint64_t dropped_events = 0;
    // Its duration under each of LaunchOptions::timing_variants; empty when it dropped them.
    std::vector<double> variant_end_cycles;
};

struct LaunchResult {
    InstrCounts counts;               // merged over blocks
    std::vector<BlockTiming> blocks;  // empty when timing is off
    double latency_us = 0;            // simulated: slowest physical core plus launch overhead
    // The same under each of LaunchOptions::timing_variants; empty when a core dropped them.
    std::vector<double> variant_latency_us;
    uint32_t ub_bytes = 0;            // most UB any block allocated with InitBuffer
    std::array<uint32_t, size_t(Mem::count)> mem_bytes{};  // ... of each memory
    std::vector<UbOverrun> ub_overruns;  // merged over blocks: per API and buffer, the furthest
    // Races over all cores (LaunchOptions::check_races), merged by kind and sites; `cores`
    // counts the cores that saw each.
    struct CoreRace {
        Race race;
        int64_t first_block = 0;  // GetBlockIdx of the first core that saw it
        uint64_t cores = 1;
    };
    std::vector<CoreRace> races;
    uint64_t races_dropped = 0;
};

// Runs `kernel(args...)` on every core of `block_dim` blocks of options.kernel_type (aiv: one
// AIV per block; aic: one AIC; mixed: one AIC and its AIVs), each core on its own thread.
// Blocks beyond the SoC's physical cores (cores.vector AIVs, cores.cube AICs or AI Cores) run
// in waves on the same physical cores. Errors go through `fail`.
using KernelEntry = void*;
LaunchResult launch(const SocSpec& soc, KernelEntry kernel, const std::vector<uint8_t*>& args, uint32_t block_dim,
                    uint64_t tiling_key, GmSpace& gm, const LaunchOptions& options = {});

// The tensor list a dynamic (list) parameter passes to the kernel, as the runtime lays it out
// for ListTensorDesc: the byte offset of the pointer table, then per tensor (its index << 32 |
// its dimension count) and its dimensions, then one data pointer per tensor. Tensors of no
// dimension make the pointer-only form: (count << 32), 0xffffffff, then the pointers.
std::vector<uint64_t> tensor_list_words(const std::vector<std::vector<int64_t>>& shapes, const std::vector<uint64_t>& data);

// Host registry filled by OP_ADD and REGISTER_TILING_DATA_CLASS.
struct TilingClass {
    std::string op_type;
    std::string cpp_name;  // qualified, demangled
    size_t size;
};
const std::vector<std::unique_ptr<ops::OpDef>>& registered_ops();
const std::vector<TilingClass>& registered_tiling_classes();

}  // namespace ascendopt_twin
