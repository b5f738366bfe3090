#include "cli/report_profile.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

namespace ascendopt {

using nlohmann::json;
// The twin's pipes (src/twin/rt/timing.cpp pipe_name); the cube cores' MTE1, M and FIX show only
// when a kernel used them.
const char* const k_pipes[] = {"S", "V", "MTE2", "MTE3", "MTE1", "M", "FIX"};

// A device's profile (msprof op) has each core's pipe times only: no instruction or byte counts.
std::string render_device_pipes(const json& s) {
    std::string out = fmt::format("\n{:<5} {:>28}   {:>21}\n", "pipe", "busy us min / median / max", "utilization min/med/max");
    for (const char* p : k_pipes) {
        if (!s["pipes"].contains(p)) continue;
        const json& x = s["pipes"][p];
        if (x["busy_us"]["max"].get<double>() == 0) continue;
        out += fmt::format("{:<5} {:>8.2f} / {:>8.2f} / {:>8.2f}   {:>5.0f}% / {:>5.0f}% / {:>5.0f}%\n", p, x["busy_us"]["min"].get<double>(),
                           x["busy_us"]["median"].get<double>(), x["busy_us"]["max"].get<double>(), 100 * x["utilization"]["min"].get<double>(),
                           100 * x["utilization"]["median"].get<double>(), 100 * x["utilization"]["max"].get<double>());
    }
    return out;
}

std::string render_profile(const std::string& op, const json& s) {
    const bool device = s.value("latency_source", "sim") == "npu";
    std::string out = device ? fmt::format("{} / {}: {:.2f} us measured on the NPU (median of the timed runs; the profile of one more "
                                           "run under msprof op: {} cores)\n",
                                           op, s["case"].get<std::string>(), s["latency_us"].get<double>(), s["blocks"].get<size_t>())
                             : fmt::format("{} / {}: {:.2f} us simulated on {} ({} blocks, tiling key {}, launch overhead {:.2f} us)\n", op,
                                           s["case"].get<std::string>(), s["latency_us"].get<double>(), s["soc"].get<std::string>(),
                                           s["blocks"].get<size_t>(), s["tiling_key"].get<uint64_t>(), s["launch_overhead_us"].get<double>());
    if (s.value("ub_capacity", 0) > 0)
        out += fmt::format("UB: {} of {} bytes allocated by InitBuffer ({:.0f}%, most of any block)\n", s["ub_bytes"].get<uint64_t>(),
                           s["ub_capacity"].get<uint64_t>(), 100.0 * s["ub_bytes"].get<double>() / s["ub_capacity"].get<double>());
    const json& b = s["bound"];
    if (!b.is_null())
        out += fmt::format("bound: {} ({}), busy {:.0f}% of core {}'s time\n", b["pipe"].get<std::string>(),
                           b["kind"].get<std::string>(), 100 * b["utilization"].get<double>(), b["block"].get<int>());
    if (device) return out + render_device_pipes(s);
    out += fmt::format("\n{:<5} {:>28}   {:>21}   {:>12}   {:>12}\n", "pipe", "busy us min / median / max", "utilization min/med/max",
                       "instructions", "bytes");
    for (const char* p : k_pipes) {
        if (!s["pipes"].contains(p)) continue;
        const json& x = s["pipes"][p];
        const bool cube_pipe = std::string_view(p) == "MTE1" || std::string_view(p) == "M" || std::string_view(p) == "FIX";
        if (cube_pipe && x["instructions"].get<uint64_t>() == 0) continue;
        out += fmt::format("{:<5} {:>8.2f} / {:>8.2f} / {:>8.2f}   {:>5.0f}% / {:>5.0f}% / {:>5.0f}%   {:>12}   {:>12}\n", p,
                           x["busy_us"]["min"].get<double>(), x["busy_us"]["median"].get<double>(), x["busy_us"]["max"].get<double>(),
                           100 * x["utilization"]["min"].get<double>(), 100 * x["utilization"]["median"].get<double>(),
                           100 * x["utilization"]["max"].get<double>(), x["instructions"].get<uint64_t>(), x["bytes"].get<uint64_t>());
    }
    out += fmt::format("\nmoved: {} bytes GM->UB/L1 (MTE2), {} bytes UB/L0C->GM (MTE3, FIX)\ninstructions by kind:",
                       s["bytes_in"].get<uint64_t>(), s["bytes_out"].get<uint64_t>());
    for (const auto& [k, v] : s["instructions_by_kind"].items()) out += fmt::format(" {} {},", k, v.get<uint64_t>());
    if (out.back() == ',') out.pop_back();
    out += "\n";
    if (s.contains("trace")) out += fmt::format("trace: {} (open in https://ui.perfetto.dev)\n", s["trace"].get<std::string>());
    return out;
}

}  // namespace ascendopt
