// The timing part of an operator binary's result, and its Chrome-trace file.
#include <fstream>

#include "harness.h"
#include "twin_rt.h"

namespace ascendopt_twin::harness {
namespace {

using nlohmann::json;

double us(double cycles, const SocSpec& soc) { return cycles / (soc.timing.clock_ghz * 1000.0); }

// The pipes a kind of core has (runtime.h PipeId): the others stay off its report and trace.
bool has_pipe(CoreKind kind, PipeId p) {
    if (p == PipeId::S || p == PipeId::MTE2 || p == PipeId::MTE3) return true;
    return kind == CoreKind::aiv ? p == PipeId::V : p != PipeId::V;
}

std::string core_label(const BlockTiming& bt) {
    return std::string(core_kind_name(bt.kind)) + " " + std::to_string(bt.block);
}

}  // namespace

json timing_json(const LaunchResult& r, const SocSpec& soc) {
    json blocks = json::array();
    for (size_t b = 0; b < r.blocks.size(); ++b) {
        const auto& bt = r.blocks[b];
        json pipes = json::object();
        for (size_t p = 0; p < k_pipes; ++p)
            pipes[pipe_name(PipeId(p))] = {{"busy_us", us(bt.pipes[p].busy, soc)},
                                           {"startup_us", us(bt.pipes[p].startup, soc)},
                                           {"count", bt.pipes[p].count},
                                           {"bytes", bt.pipes[p].bytes}};
        blocks.push_back({{"block", bt.block}, {"core", core_kind_name(bt.kind)}, {"sub_block", bt.sub_block},
                          {"start_us", us(bt.start_cycles, soc)}, {"end_us", us(bt.start_cycles + bt.end_cycles, soc)},
                          {"busy_end_us", us(bt.end_cycles, soc)}, {"basic_blocks", bt.basic_blocks}, {"pipes", pipes}});
    }
    json out = {{"latency_us", r.latency_us},
                {"unit", "us"},
                {"source", "sim"},
                {"soc", soc.name},
                {"launch_overhead_us", soc.timing.launch_overhead_us},
                {"blocks", blocks}};
    if (!r.variant_latency_us.empty()) out["variant_latency_us"] = r.variant_latency_us;
    return out;
}

std::string chrome_trace(const LaunchResult& r, const SocSpec& soc) {
    json events = json::array();
    uint64_t dropped = 0;
    for (size_t b = 0; b < r.blocks.size(); ++b) {
        const auto& bt = r.blocks[b];
        events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", b}, {"args", {{"name", core_label(bt)}}}});
        events.push_back({{"name", "process_sort_index"}, {"ph", "M"}, {"pid", b}, {"args", {{"sort_index", b}}}});
        for (size_t p = 0; p < k_pipes; ++p) {
            if (!has_pipe(bt.kind, PipeId(p))) continue;
            events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", b}, {"tid", p}, {"args", {{"name", pipe_name(PipeId(p))}}}});
            events.push_back({{"name", "thread_sort_index"}, {"ph", "M"}, {"pid", b}, {"tid", p}, {"args", {{"sort_index", p}}}});
        }
        for (const auto& e : bt.trace) {
            json ev = {{"name", e.name}, {"cat", pipe_name(PipeId(e.pipe))}, {"ph", "X"}, {"pid", b}, {"tid", e.pipe},
                       {"ts", us(bt.start_cycles + e.start, soc)}, {"dur", us(e.duration, soc)}};
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
