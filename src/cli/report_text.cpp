#include "cli/report_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "eval/race_report.h"

namespace ascendopt {
namespace {

// A list the twin reported for a case; cases that never reached the twin (a golden that
// raised, a build that failed) have no twin object at all.
nlohmann::json twin_list(const CaseResult& c, const char* key) {
    if (!c.twin.is_object()) return nlohmann::json::array();
    const auto it = c.twin.find(key);
    return it != c.twin.end() && it->is_array() ? *it : nlohmann::json::array();
}

std::string case_line(const CaseResult& c, size_t name_width) {
    const bool ok = c.status == EvalStatus::ok;
    double max_abs = 0, max_rel = 0;
    for (const auto& o : c.outputs) {
        max_abs = std::max(max_abs, o.max_abs_error);
        max_rel = std::max(max_rel, o.max_rel_error);
    }
    // XFAIL: a known operator defect reproduced; XPASS: a known defect did not reproduce.
    const char* verdict = c.expected_failure() ? "XFAIL" : !c.known_defect.empty() ? "XPASS" : ok ? "PASS" : "FAIL";
    std::string line = fmt::format("  {:<5}  {:<{}}  {:<5}  ", verdict, c.name, name_width, role_name(c.role));
    if (c.expected_failure())
        return line + fmt::format("known operator defect: {}\n{:>9}(the twin: {}: {})\n", c.known_defect, "", status_name(c.status), c.reason);
    if (!c.known_defect.empty())
        return line + fmt::format("the known operator defect did not reproduce: {}\n", c.known_defect);
    if (ok && c.latency_us && c.role == CaseRole::perf)
        return line + fmt::format("max abs err {:.3g}  max rel err {:.3g}  {:.2f} us (simulated)\n", max_abs, max_rel, *c.latency_us);
    if (ok) return line + fmt::format("max abs err {:.3g}  max rel err {:.3g}\n", max_abs, max_rel);
    return line + fmt::format("{}: {}\n", status_name(c.status), c.reason);
}

// Accesses that reached into allocation padding (docs/twin.md, "Device memory"), grouped over
// the cases: on the device they are harmless, but a kernel author may want to know.
std::string padding_notes(const EvalResult& r) {
    struct Group {
        uint64_t most = 0;
        int cases = 0;
    };
    std::map<std::string, Group> groups;  // "z: DataCopy(UB->GM) writes" -> furthest, cases
    for (const auto& c : r.cases)
        for (const auto& n : twin_list(c, "gm_padding")) {
            Group& g = groups[n.value("tensor", "?") + ": " + n.value("api", "?") + (n.value("write", false) ? " writes" : " reads")];
            g.most = std::max(g.most, n.value("bytes_past_end", uint64_t(0)));
            ++g.cases;
        }
    std::string out;
    for (const auto& [what, g] : groups)
        out += fmt::format("  note: {} up to {} B past the end, into the allocation padding ({} of {} cases)\n", what, g.most, g.cases,
                           r.cases.size());
    return out;
}

// UB accesses past their tensor's buffer that stayed inside the UB (docs/twin.md, "Memory
// model"): the device lets them read or overwrite the next buffer.
std::string ub_overrun_notes(const EvalResult& r) {
    std::map<std::string, std::pair<uint64_t, int>> groups;  // text -> furthest, cases
    for (const auto& c : r.cases)
        for (const auto& o : twin_list(c, "ub_overruns")) {
            const std::string which = o.value("which", "");
            auto& g = groups[o.value("api", "?") + ": the " + (which.empty() ? std::string("tensor") : which + " tensor") + "\n" +
                             o.value("buffer", "?")];
            g.first = std::max(g.first, o.value("bytes_past", uint64_t(0)));
            ++g.second;
        }
    std::string out;
    for (const auto& [key, g] : groups) {
        const auto split = key.find('\n');  // "Add: the destination tensor" / "in buffer 1 of 2 of ..."
        out += fmt::format("  note: {} runs up to {} B past its buffer, into the next; it is {} ({} of {} cases)\n", key.substr(0, split),
                           g.first, key.substr(split + 1), g.second, r.cases.size());
    }
    return out;
}

// Races the hazard checker found (--races) in cases they did not fail (--races=note, or a case
// that failed otherwise): each pair of instructions once, with the cases it was seen in.
std::string race_notes(const EvalResult& r) {
    std::map<std::string, std::pair<std::string, int>> groups;  // the pair -> (first sentence, cases)
    std::vector<std::string> order;
    for (const auto& c : r.cases) {
        if (c.status == EvalStatus::race) continue;  // its own line says it
        std::vector<std::string> in_case;  // one pair of lines may come from several sites (instantiations)
        for (const auto& race : twin_list(c, "races")) {
            const std::string key = race_identity(race);
            if (std::find(in_case.begin(), in_case.end(), key) != in_case.end()) continue;
            in_case.push_back(key);
            auto& g = groups[key];
            if (g.second++ == 0) {
                g.first = describe_race(race);
                order.push_back(key);
            }
        }
    }
    std::string out;
    for (const auto& key : order)
        out += fmt::format("  race: {} (in {} of {} cases)\n", groups[key].first, groups[key].second, r.cases.size());
    return out;
}

}  // namespace

std::string render_eval(const EvalResult& r) {
    std::string out = fmt::format("{}  {}  (sim, built in {:.1f} s{}{})\n", r.op_name, r.op_dir, r.build_seconds,
                                  r.build_cached ? ", cached" : "", r.sandboxed ? "" : ", UNSANDBOXED");
    if (r.status == EvalStatus::rejected && r.cases.empty()) return out + fmt::format("  FAIL  rejected: {}\n", r.reason);
    if (r.status == EvalStatus::build_failed) {
        out += fmt::format("  FAIL  build_failed: {}\n", r.reason);
        if (!r.build_log.empty()) out += r.build_log + (r.build_log.back() == '\n' ? "" : "\n");
        return out;
    }
    size_t width = 4;
    int passed = 0, defects = 0;
    for (const auto& c : r.cases) {
        width = std::max(width, c.name.size());
        passed += c.status == EvalStatus::ok && c.known_defect.empty();
        defects += c.expected_failure();
    }
    for (const auto& c : r.cases) out += case_line(c, width);
    out += padding_notes(r);
    out += ub_overrun_notes(r);
    out += race_notes(r);
    const size_t checked = r.cases.size() - size_t(defects);
    out += fmt::format("  {} of {} cases passed", passed, checked);
    if (defects > 0) out += fmt::format("; {} known operator defect{} reproduced", defects, defects == 1 ? "" : "s");
    out += "\n";
    return out;
}

std::string render_summary(const std::vector<EvalResult>& results) {
    size_t width = 8;
    for (const auto& r : results) width = std::max(width, r.op_name.size());
    std::string out = fmt::format("\n{:<{}}  {:>6}  {:>6}  {:>5}  {:>8}  {:>14}  {}\n", "operator", width, "cases", "passed", "XFAIL",
                                  "build s", "perf us (sim)", "status");
    int ok = 0, with_defects = 0;
    for (const auto& r : results) {
        int passed = 0, xfail = 0;
        for (const auto& c : r.cases) {
            passed += c.status == EvalStatus::ok && c.known_defect.empty();
            xfail += c.expected_failure();
        }
        ok += r.status == EvalStatus::ok;
        with_defects += xfail > 0;
        std::string perf = "-";
        for (const auto& c : r.cases)
            if (c.role == CaseRole::perf && c.latency_us) {
                perf = fmt::format("{:.2f}", *c.latency_us);
                break;
            }
        out += fmt::format("{:<{}}  {:>6}  {:>6}  {:>5}  {:>8.1f}  {:>14}  {}\n", r.op_name, width, r.cases.size(), passed, xfail,
                           r.build_seconds, perf, status_name(r.status));
    }
    out += fmt::format("{} of {} operators passed", ok, results.size());
    if (with_defects > 0) out += fmt::format("; {} of them reproduce known operator defects (XFAIL)", with_defects);
    out += " (sim backend: Ascend C twin)\n";
    return out;
}

std::string render_error(const Error& e) {
    std::string out = "ascendopt: error: " + e.message + "\n";
    if (!e.hint.empty()) out += "  hint: " + e.hint + "\n";
    if (!e.detail.empty()) out += e.detail + (e.detail.back() == '\n' ? "" : "\n");
    return out;
}

}  // namespace ascendopt
