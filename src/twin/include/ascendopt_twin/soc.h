// What the twin knows of one Ascend SoC: core counts, on-chip memory sizes and the timing
// model's parameters. Descriptions live in data files (share/soc/*.toml); the evaluator reads
// them and hands them to operator binaries as JSON (docs/timing-model.md lists every field).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "ascendopt_twin/runtime.h"

namespace ascendopt_twin {

struct TimingParams {
    double clock_ghz = 1.8;
    double launch_overhead_us = 0;
    double gm_bytes_per_cycle = 0;   // HBM bandwidth shared by active cores
    double mte_bytes_per_cycle = 0;  // one core's DMA bandwidth from HBM
    // What GetCoreMemBw tells host code: mte.reported_bytes_per_cycle, else mte.bytes_per_cycle.
    // A sensitivity variant varies the modeled rate, not what the platform reports.
    double mte_reported_bytes_per_cycle = 0;
    // The L2 in front of HBM ([l2]; absent: none modeled). A launch's GM traffic hits it in the
    // share l2_resident_fraction x min(1, L2 capacity / the launch's GM tensors).
    double l2_read_bytes_per_cycle = 0;   // one core's read rate from L2
    double l2_write_bytes_per_cycle = 0;  // one core's write rate into L2
    double l2_bytes_per_cycle = 0;        // the L2's bandwidth shared by active cores
    double l2_resident_fraction = 0;      // of a launch's data found in L2 when it fits
    double mte_latency_cycles = 0;  // from issue to first data; overlaps earlier transfers
    double mte_setup_cycles = 0;    // pipe occupancy of each DMA instruction
    double mte_burst_cycles = 0;
    double vector_issue_cycles = 0;
    double vector_default_cycles_per_repeat = 1;
    std::map<std::string, double, std::less<>> vector_cycles_per_repeat;
    double scalar_cycles_per_basic_block = 0;
    double scalar_issue_cycles = 0;
    double ub_access_cycles = 0;
    double gm_access_cycles = 0;
    double flag_cycles = 0;
    double barrier_cycles = 0;
    double sync_all_cycles = 0;
    CubeTiming cube;  // MTE1, M and FIX of the cube cores ([mte1], [cube], [fixpipe])
    double cross_core_flag_cycles = 0;  // CrossCoreSetFlag -> CrossCoreWaitFlag on another core
};

struct SocSpec {
    std::string name;        // e.g. "Ascend910B2"
    std::string short_name;  // e.g. "ascend910b", as OpDef AddConfig names it
    int family = 0;          // platform_ascendc::SocVersion value
    uint32_t vector_cores = 0;
    uint32_t cube_cores = 0;
    uint64_t ub_bytes = 0;           // the UB kernels may address
    uint64_t ub_reported_bytes = 0;  // what GetCoreMemSize(UB) tells host tiling code
    uint64_t l1_bytes = 0;
    uint64_t l0a_bytes = 0;
    uint64_t l0b_bytes = 0;
    uint64_t l0c_bytes = 0;
    uint64_t bt_bytes = 0;  // bias table (TPosition::C2)
    uint64_t fb_bytes = 0;  // Fixpipe buffer (TPosition::C2PIPE2GM)
    uint64_t l2_bytes = 0;
    uint64_t hbm_bytes = 0;
    TimingParams timing;
};

}  // namespace ascendopt_twin
