// The timing part of an operator binary's result, and its Chrome-trace file.
#include <fstream>

#include "harness.h"
#include "twin_rt.h"

namespace ascendopt_twin::harness {
namespace {

using nlohmann::json;

double us(double cycles, const SocSpec& soc) { return cycles / (soc.timing.clock_ghz * 1000.0); }

// Start of each block on its physical core (blocks beyond the core count run in waves).
std::vector<double> block_offsets(const LaunchResult& r, const SocSpec& soc) {
    std::vector<double> offset(r.blocks.size(), 0.0), core_time(std::max(1u, soc.vector_cores), 0.0);
    for (size_t b = 0; b < r.blocks.size(); ++b) {
        offset[b] = core_time[b % core_time.size()];
        core_time[b % core_time.size()] += r.blocks[b].end_cycles;
    }
    return offset;
}

}  // namespace

json timing_json(const LaunchResult& r, const SocSpec& soc) {
    json blocks = json::array();
    const auto offsets = block_offsets(r, soc);
    for (size_t b = 0; b < r.blocks.size(); ++b) {
        const auto& bt = r.blocks[b];
        json pipes = json::object();
        for (size_t p = 0; p < k_pipes; ++p)
            pipes[pipe_name(PipeId(p))] = {{"busy_us", us(bt.pipes[p].busy, soc)},
                                           {"startup_us", us(bt.pipes[p].startup, soc)},
                                           {"count", bt.pipes[p].count},
                                           {"bytes", bt.pipes[p].bytes}};
        blocks.push_back({{"block", b}, {"start_us", us(offsets[b], soc)}, {"end_us", us(offsets[b] + bt.end_cycles, soc)},
                          {"busy_end_us", us(bt.end_cycles, soc)}, {"basic_blocks", bt.basic_blocks}, {"pipes", pipes}});
    }
    return {{"latency_us", r.latency_us},
            {"unit", "us"},
            {"source", "sim"},
            {"soc", soc.name},
            {"launch_overhead_us", soc.timing.launch_overhead_us},
            {"blocks", blocks}};
}

std::string chrome_trace(const LaunchResult& r, const SocSpec& soc) {
    const auto offsets = block_offsets(r, soc);
    json events = json::array();
    uint64_t dropped = 0;
    for (size_t b = 0; b < r.blocks.size(); ++b) {
        events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", b}, {"args", {{"name", "core " + std::to_string(b)}}}});
        events.push_back({{"name", "process_sort_index"}, {"ph", "M"}, {"pid", b}, {"args", {{"sort_index", b}}}});
        for (size_t p = 0; p < k_pipes; ++p) {
            events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", b}, {"tid", p}, {"args", {{"name", pipe_name(PipeId(p))}}}});
            events.push_back({{"name", "thread_sort_index"}, {"ph", "M"}, {"pid", b}, {"tid", p}, {"args", {{"sort_index", p}}}});
        }
        for (const auto& e : r.blocks[b].trace) {
            json ev = {{"name", e.name}, {"cat", pipe_name(PipeId(e.pipe))}, {"ph", "X"}, {"pid", b}, {"tid", e.pipe},
                       {"ts", us(offsets[b] + e.start, soc)}, {"dur", us(e.duration, soc)}};
            if (e.bytes) ev["args"] = {{"bytes", e.bytes}};
            events.push_back(std::move(ev));
        }
        dropped += r.blocks[b].dropped_events;
    }
    const json doc = {{"traceEvents", events},
                      {"displayTimeUnit", "ns"},
                      {"otherData", {{"soc", soc.name}, {"latency_us", r.latency_us}, {"source", "ascendopt twin timing model (simulated)"},
                                     {"dropped_events", dropped}}}};
    return doc.dump();
}

}  // namespace ascendopt_twin::harness
