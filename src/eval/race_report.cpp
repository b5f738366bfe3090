#include "eval/race_report.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "eval/evaluator.h"
#include "eval/symbolize.h"

namespace ascendopt {
namespace {

constexpr size_t k_summary_races = 16;

// The HardEvent values Ascend C declares for a pair of pipes (kernel/sync.h lists the same).
constexpr std::array<std::string_view, 35> k_events = {
    "MTE2_V",  "MTE2_MTE3", "MTE2_S",   "MTE2_MTE1", "MTE2_M",   "MTE2_FIX",  "V_MTE2",   "V_MTE3", "V_S",
    "V_V",     "V_M",       "V_MTE1",   "MTE3_V",    "MTE3_MTE2", "MTE3_S",   "MTE3_MTE1", "S_V",    "S_MTE2",
    "S_MTE3",  "MTE1_MTE2", "MTE1_M",   "MTE1_MTE3", "MTE1_V",   "MTE1_FIX",  "M_MTE1",   "M_V",    "M_MTE2",
    "M_FIX",   "M_S",       "FIX_M",    "FIX_MTE2",  "FIX_S",    "FIX_MTE3",  "FIX_MTE1", "FIX_FIX"};

std::string site_text(const nlohmann::json& site) {
    const std::string api = site.value("api", std::string("?"));
    const std::string where = site.value("where", std::string());
    return where.empty() ? "in " + api + " (no operator source line: the frames are not in op_kernel/)" : "at " + where + " (" + api + ")";
}

std::string bytes_text(const nlohmann::json& race) {
    return race.value("memory", std::string("UB")) + " bytes " + std::to_string(race.value("first_byte", uint64_t(0))) + ".." +
           std::to_string(race.value("last_byte", uint64_t(0))) + " (" + race.value("buffer", std::string("?")) + ")";
}

}  // namespace

const char* race_check_name(RaceCheck r) {
    switch (r) {
        case RaceCheck::off: return "off";
        case RaceCheck::note: return "note";
        case RaceCheck::fail: return "fail";
    }
    return "?";
}

std::string missing_sync(const std::string& earlier, const std::string& later) {
    const std::string event = earlier + "_" + later;
    if (std::find(k_events.begin(), k_events.end(), event) != k_events.end())
        return "SetFlag<HardEvent::" + event + ">(id) after the first and WaitFlag<HardEvent::" + event + ">(id) before the second";
    return "PipeBarrier<PIPE_ALL>() between them (no HardEvent pairs " + earlier + " with " + later + ")";
}

void resolve_race_sites(nlohmann::json& twin, const std::filesystem::path& binary) {
    if (!twin.is_object() || !twin.contains("races") || !twin["races"].is_array()) return;
    for (auto& race : twin["races"])
        for (const char* side : {"earlier", "later"}) {
            if (!race.contains(side) || !race[side].is_object()) continue;
            auto& site = race[side];
            std::vector<std::string> frames;
            if (site.contains("frames") && site["frames"].is_array())
                for (const auto& f : site["frames"])
                    if (f.is_string()) frames.push_back(f.get<std::string>());
            if (auto line = operator_source_line(binary, frames)) site["where"] = line->text();
        }
}

std::string race_identity(const nlohmann::json& race, bool with_lines) {
    std::string s = race.value("kind", std::string());
    for (const char* side : {"earlier", "later"}) {
        if (!race.contains(side) || !race[side].is_object()) continue;
        const auto& site = race[side];
        s += "|" + site.value("pipe", std::string()) + "|" + site.value("api", std::string());
        if (with_lines) s += "|" + site.value("where", site.value("frames", nlohmann::json::array()).dump());
    }
    return s;
}

std::string describe_race(const nlohmann::json& race) {
    const nlohmann::json none = nlohmann::json::object();
    const auto& e = race.contains("earlier") ? race["earlier"] : none;
    const auto& l = race.contains("later") ? race["later"] : none;
    const std::string ep = e.value("pipe", std::string("?")), lp = l.value("pipe", std::string("?"));
    const std::string kind = race.value("kind", std::string());
    std::string s;
    if (kind == "write after read")
        s = ep + " reads " + bytes_text(race) + " " + site_text(e) + ", and " + lp + " then overwrites them " + site_text(l) +
            ", with nothing ordering the two: on the device " + lp + " may overwrite them before " + ep + " has read them";
    else if (kind == "write after write")
        s = ep + " writes " + bytes_text(race) + " " + site_text(e) + ", and " + lp + " writes them again " + site_text(l) +
            ", with nothing ordering the two: on the device the writes may land in either order";
    else
        s = ep + " writes " + bytes_text(race) + " " + site_text(e) + ", and " + lp + " reads them " + site_text(l) +
            ", with nothing ordering the two: on the device " + lp + " may read them before " + ep + " has written them";
    s += " (block " + std::to_string(race.value("first_block", int64_t(0)));
    if (const uint64_t cores = race.value("cores", uint64_t(1)); cores > 1) s += " and " + std::to_string(cores - 1) + " more cores";
    s += "). Add " + missing_sync(ep, lp) + ", or hand the tensor over through a queue (EnQue/DeQue)";
    return s;
}

std::string race_reason(const nlohmann::json& twin) {
    const auto& races = twin.at("races");
    std::string s = describe_race(races.at(0));
    const size_t more = races.size() - 1 + twin.value("races_dropped", size_t(0));
    if (more) s += "; " + std::to_string(more) + " more race" + (more > 1 ? "s" : "") + " in this case (the report lists them)";
    return s + ". --races=note reports races without failing the case";
}

nlohmann::json race_summary(const EvalResult& r) {
    nlohmann::json out = nlohmann::json::array();
    std::vector<std::string> seen;
    for (const auto& c : r.cases) {
        if (!c.twin.is_object() || !c.twin.contains("races") || !c.twin["races"].is_array()) continue;
        for (const auto& race : c.twin["races"]) {
            const std::string id = race_identity(race, false);
            if (std::find(seen.begin(), seen.end(), id) != seen.end() || seen.size() >= k_summary_races) continue;
            seen.push_back(id);
            out.push_back({{"identity", id}, {"text", describe_race(race)}});
        }
    }
    return out;
}

}  // namespace ascendopt
