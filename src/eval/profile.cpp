#include "eval/profile.h"

#include <algorithm>

namespace ascendopt {
namespace {

using nlohmann::json;

// The twin's pipes (src/twin/rt/timing.cpp pipe_name): MTE1, M and FIX are the cube cores'.
const char* const k_pipes[] = {"S", "V", "MTE2", "MTE3", "MTE1", "M", "FIX"};

// One pipe of a core's timing (empty when an older result lacks the pipe).
const json& pipe_of(const json& block, const char* p) {
    static const json none = json::object();
    return block.contains("pipes") && block["pipes"].contains(p) ? block["pipes"][p] : none;
}

json spread(std::vector<double> v) {
    if (v.empty()) return {{"min", 0}, {"median", 0}, {"max", 0}};
    std::sort(v.begin(), v.end());
    return {{"min", v.front()}, {"median", v[v.size() / 2]}, {"max", v.back()}};
}

// The limiting pipe of the slowest core, and why.
json bound_of(const json& blocks) {
    const json* slowest = nullptr;
    for (const auto& b : blocks)
        if (!slowest || b.value("busy_end_us", 0.0) > slowest->value("busy_end_us", 0.0)) slowest = &b;
    if (!slowest) return {};
    std::string pipe = "S";
    double busy = -1;
    for (const char* p : k_pipes) {
        const double b = pipe_of(*slowest, p).value("busy_us", 0.0);
        if (b > busy) {
            busy = b;
            pipe = p;
        }
    }
    const double end = slowest->value("busy_end_us", 0.0);
    const double startup = pipe_of(*slowest, pipe.c_str()).value("startup_us", 0.0);
    std::string kind = pipe == "S" ? "scalar" : pipe == "V" ? "vector" : pipe == "M" ? "cube" : "memory";
    if ((pipe == "MTE2" || pipe == "MTE3" || pipe == "FIX") && busy > 0 && startup / busy > 0.5) kind = "DMA latency";
    const double util = end > 0 ? busy / end : 0;
    if (util < 0.5) kind += ", stalls (no pipe busy more than half the time)";
    return {{"pipe", pipe}, {"kind", kind}, {"utilization", util}, {"block", slowest->value("block", 0)}};
}

}  // namespace

json profile_summary(const CaseResult& c, const std::string& latency_source) {
    // A device's result has only what its profiler measured: no instruction counts, no bytes.
    static const json none = json::object(), no_blocks = json::array();
    const json& timing = c.twin.is_object() && c.twin.contains("timing") ? c.twin["timing"] : none;
    const json& blocks = timing.contains("blocks") ? timing["blocks"] : no_blocks;
    json pipes = json::object();
    for (const char* p : k_pipes) {
        std::vector<double> busy, util;
        uint64_t count = 0, bytes = 0;
        for (const auto& b : blocks) {
            const double end = b.value("busy_end_us", 0.0);
            const double bu = pipe_of(b, p).value("busy_us", 0.0);
            busy.push_back(bu);
            util.push_back(end > 0 ? bu / end : 0);
            count += pipe_of(b, p).value("count", uint64_t(0));
            bytes += pipe_of(b, p).value("bytes", uint64_t(0));
        }
        pipes[p] = {{"busy_us", spread(busy)}, {"utilization", spread(util)}, {"instructions", count}, {"bytes", bytes}};
    }
    return {{"case", c.name},
            {"latency_us", c.latency_us.value_or(timing.value("latency_us", 0.0))},
            {"latency_source", latency_source},
            {"soc", timing.value("soc", "")},
            {"launch_overhead_us", timing.value("launch_overhead_us", 0.0)},
            {"blocks", blocks.size()},
            {"tiling_key", c.twin.value("tiling_key", 0)},
            {"ub_bytes", c.twin.value("ub_bytes", 0)},
            {"ub_capacity", c.twin.value("ub_capacity", 0)},
            {"bound", bound_of(blocks)},
            {"pipes", pipes},
            {"bytes_in", pipes["MTE2"]["bytes"]},
            {"bytes_out", pipes["MTE3"]["bytes"].get<uint64_t>() + pipes["FIX"]["bytes"].get<uint64_t>()},
            {"instructions_by_kind", c.twin.is_object() ? c.twin.value("instructions", json::object()).value("by_kind", json::object()) : json::object()},
            {"cores", blocks}};  // per core: start/end, basic blocks, per-pipe busy, set-up, count, bytes
}


}  // namespace ascendopt
