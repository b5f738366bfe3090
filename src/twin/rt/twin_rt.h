// The twin runtime's own interface, for the launcher, the harness and unit tests.
// Kernel code never includes this; it sees only ascendopt_twin/runtime.h.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "ascendopt_twin/host/op_def.h"
#include "ascendopt_twin/runtime.h"
#include "ascendopt_twin/soc.h"
#include "timing.h"

namespace ascendopt_twin {

// Thrown by the default error handler (unit tests); the harness installs one that exits.
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

// Instruction accounting of one core.
struct InstrCounts {
    uint64_t count[size_t(PipeId::count)] = {};
    uint64_t bytes[size_t(PipeId::count)] = {};
    std::map<std::string, uint64_t> by_kind;
    void merge(const InstrCounts& o);
};

class GmSpace;
class CoreTimeline;

struct LaunchOptions {
    bool timing = true;               // model time (off: functional run only)
    bool trace = false;               // keep per-instruction events for a Chrome trace
    double mte_bytes_per_cycle = 0;   // this core's DMA bandwidth; 0: the SoC's per-core figure
    // Run each block only up to its first data access (GM access, vector instruction, scalar UB
    // access, SyncAll): enough to execute the tiling read and every InitBuffer, so UB overflow
    // shows at the cost of a few microseconds per block. Outputs are not written.
    bool preflight = false;
};

// Thrown at a block's first data access in a preflight launch; ends that block normally.
struct PreflightStop {};

// Sets up a core on the calling thread for its lifetime: UB arena, block index, mask state.
class CoreScope {
public:
    CoreScope(const SocSpec& soc, int64_t block_idx, int64_t block_num, uint64_t tiling_key, GmSpace* gm,
              class Barrier* barrier = nullptr, const LaunchOptions& options = {});
    ~CoreScope();
    CoreScope(const CoreScope&) = delete;
    CoreScope& operator=(const CoreScope&) = delete;
    const InstrCounts& counts() const;
    CoreTimeline* timeline() const;  // null when timing is off
    uint32_t ub_bytes_used() const;  // high-water mark of InitBuffer allocations
    // Charges the kernel's remaining scalar work and returns the core's end time in cycles.
    double finish();

    struct State;  // defined in core.cpp

private:
    std::unique_ptr<State> m_state;
};

// Device GM: buffers at addresses the host cannot dereference (a PROT_NONE reservation),
// backed by ordinary host memory that only the runtime reaches.
class GmSpace {
public:
    explicit GmSpace(uint64_t capacity_bytes);
    ~GmSpace();
    GmSpace(const GmSpace&) = delete;
    GmSpace& operator=(const GmSpace&) = delete;

    // Adds a buffer of `bytes`; returns its device address. `name` appears in errors.
    uint8_t* add(const std::string& name, uint64_t bytes);
    // Host memory behind the buffer at `device_addr` (its start).
    uint8_t* host(const uint8_t* device_addr);
    uint8_t* translate(uint64_t addr, uint64_t bytes, bool write, const char* api);
    // Name and offset of the buffer containing `addr`, for crash reports; false if none.
    bool describe(uint64_t addr, std::string& name, uint64_t& offset) const;
    bool contains(uint64_t addr) const;

private:
    struct Buffer {
        std::string name;
        uint64_t addr;
        uint64_t bytes;
        std::vector<uint8_t> data;
    };
    const Buffer* find(uint64_t addr) const;
    uint8_t* m_base = nullptr;
    uint64_t m_capacity = 0;
    uint64_t m_next = 0;
    std::vector<std::unique_ptr<Buffer>> m_buffers;
};

// SyncAll across the blocks of a launch; a block that ends while others wait is an error.
class Barrier {
public:
    explicit Barrier(int64_t participants);
    // Waits for every block; returns the largest `ready_time` any of them brought.
    double arrive_and_wait(int64_t block, double ready_time = 0);
    void leave(int64_t block);

private:
    struct Impl;
    std::shared_ptr<Impl> m_impl;
};

// What the timing model says about one block.
struct BlockTiming {
    double end_cycles = 0;
    std::array<PipeStats, k_pipes> pipes{};
    uint64_t basic_blocks = 0;
    std::vector<TraceEvent> trace;
    uint64_t dropped_events = 0;
};

struct LaunchResult {
    InstrCounts counts;               // merged over blocks
    std::vector<BlockTiming> blocks;  // empty when timing is off
    double latency_us = 0;            // simulated: slowest physical core plus launch overhead
    uint32_t ub_bytes = 0;            // most UB any block allocated with InitBuffer
};

// Runs `kernel(args...)` once per block, each block on its own thread with its own core.
// Blocks beyond the SoC's vector cores run in waves on the same physical cores. Errors go
// through `fail`.
using KernelEntry = void*;
LaunchResult launch(const SocSpec& soc, KernelEntry kernel, const std::vector<uint8_t*>& args, uint32_t block_dim,
                    uint64_t tiling_key, GmSpace& gm, const LaunchOptions& options = {});

// Host registry filled by OP_ADD and REGISTER_TILING_DATA_CLASS.
struct TilingClass {
    std::string op_type;
    std::string cpp_name;  // qualified, demangled
    size_t size;
};
const std::vector<std::unique_ptr<ops::OpDef>>& registered_ops();
const std::vector<TilingClass>& registered_tiling_classes();

}  // namespace ascendopt_twin
