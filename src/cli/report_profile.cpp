#include "cli/report_profile.h"

#include <fmt/format.h>

#include <algorithm>

namespace ascendopt {
namespace {

using nlohmann::json;

const char* const k_pipes[] = {"S", "V", "MTE2", "MTE3"};

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
        const double b = (*slowest)["pipes"][p].value("busy_us", 0.0);
        if (b > busy) {
            busy = b;
            pipe = p;
        }
    }
    const double end = slowest->value("busy_end_us", 0.0);
    const double startup = (*slowest)["pipes"][pipe].value("startup_us", 0.0);
    std::string kind = pipe == "S" ? "scalar" : pipe == "V" ? "vector" : "memory";
    if ((pipe == "MTE2" || pipe == "MTE3") && busy > 0 && startup / busy > 0.5) kind = "DMA latency";
    const double util = end > 0 ? busy / end : 0;
    if (util < 0.5) kind += ", stalls (no pipe busy more than half the time)";
    return {{"pipe", pipe}, {"kind", kind}, {"utilization", util}, {"block", slowest->value("block", 0)}};
}

}  // namespace

json profile_summary(const CaseResult& c) {
    const json& timing = c.twin["timing"];
    const json& blocks = timing["blocks"];
    json pipes = json::object();
    for (const char* p : k_pipes) {
        std::vector<double> busy, util;
        uint64_t count = 0, bytes = 0;
        for (const auto& b : blocks) {
            const double end = b.value("busy_end_us", 0.0);
            const double bu = b["pipes"][p].value("busy_us", 0.0);
            busy.push_back(bu);
            util.push_back(end > 0 ? bu / end : 0);
            count += b["pipes"][p].value("count", uint64_t(0));
            bytes += b["pipes"][p].value("bytes", uint64_t(0));
        }
        pipes[p] = {{"busy_us", spread(busy)}, {"utilization", spread(util)}, {"instructions", count}, {"bytes", bytes}};
    }
    return {{"case", c.name},
            {"latency_us", c.latency_us.value_or(timing.value("latency_us", 0.0))},
            {"latency_source", "sim"},
            {"soc", timing.value("soc", "")},
            {"launch_overhead_us", timing.value("launch_overhead_us", 0.0)},
            {"blocks", blocks.size()},
            {"tiling_key", c.twin.value("tiling_key", 0)},
            {"ub_bytes", c.twin.value("ub_bytes", 0)},
            {"ub_capacity", c.twin.value("ub_capacity", 0)},
            {"bound", bound_of(blocks)},
            {"pipes", pipes},
            {"bytes_in", pipes["MTE2"]["bytes"]},
            {"bytes_out", pipes["MTE3"]["bytes"]},
            {"instructions_by_kind", c.twin["instructions"].value("by_kind", json::object())},
            {"cores", blocks}};  // per core: start/end, basic blocks, per-pipe busy, set-up, count, bytes
}

std::string render_profile(const std::string& op, const json& s) {
    std::string out = fmt::format("{} / {}: {:.2f} us simulated on {} ({} blocks, tiling key {}, launch overhead {:.2f} us)\n",
                                  op, s["case"].get<std::string>(), s["latency_us"].get<double>(), s["soc"].get<std::string>(),
                                  s["blocks"].get<size_t>(), s["tiling_key"].get<uint64_t>(), s["launch_overhead_us"].get<double>());
    if (s.value("ub_capacity", 0) > 0)
        out += fmt::format("UB: {} of {} bytes allocated by InitBuffer ({:.0f}%, most of any block)\n", s["ub_bytes"].get<uint64_t>(),
                           s["ub_capacity"].get<uint64_t>(), 100.0 * s["ub_bytes"].get<double>() / s["ub_capacity"].get<double>());
    const json& b = s["bound"];
    if (!b.is_null())
        out += fmt::format("bound: {} ({}), busy {:.0f}% of core {}'s time\n", b["pipe"].get<std::string>(),
                           b["kind"].get<std::string>(), 100 * b["utilization"].get<double>(), b["block"].get<int>());
    out += fmt::format("\n{:<5} {:>28}   {:>21}   {:>12}   {:>12}\n", "pipe", "busy us min / median / max", "utilization min/med/max",
                       "instructions", "bytes");
    for (const char* p : k_pipes) {
        const json& x = s["pipes"][p];
        out += fmt::format("{:<5} {:>8.2f} / {:>8.2f} / {:>8.2f}   {:>5.0f}% / {:>5.0f}% / {:>5.0f}%   {:>12}   {:>12}\n", p,
                           x["busy_us"]["min"].get<double>(), x["busy_us"]["median"].get<double>(), x["busy_us"]["max"].get<double>(),
                           100 * x["utilization"]["min"].get<double>(), 100 * x["utilization"]["median"].get<double>(),
                           100 * x["utilization"]["max"].get<double>(), x["instructions"].get<uint64_t>(), x["bytes"].get<uint64_t>());
    }
    out += fmt::format("\nmoved: {} bytes GM->UB (MTE2), {} bytes UB->GM (MTE3)\ninstructions by kind:",
                       s["bytes_in"].get<uint64_t>(), s["bytes_out"].get<uint64_t>());
    for (const auto& [k, v] : s["instructions_by_kind"].items()) out += fmt::format(" {} {},", k, v.get<uint64_t>());
    if (out.back() == ',') out.pop_back();
    out += "\n";
    if (s.contains("trace")) out += fmt::format("trace: {} (open in https://ui.perfetto.dev)\n", s["trace"].get<std::string>());
    return out;
}

}  // namespace ascendopt
