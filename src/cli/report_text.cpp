#include "cli/report_text.h"

#include <fmt/format.h>

namespace ascendopt {
namespace {

std::string case_line(const CaseResult& c, size_t name_width) {
    const bool ok = c.status == EvalStatus::ok;
    double max_abs = 0, max_rel = 0;
    for (const auto& o : c.outputs) {
        max_abs = std::max(max_abs, o.max_abs_error);
        max_rel = std::max(max_rel, o.max_rel_error);
    }
    std::string line = fmt::format("  {:<4}  {:<{}}  {:<5}  ", ok ? "PASS" : "FAIL", c.name, name_width, role_name(c.role));
    if (ok && c.latency_us && c.role == CaseRole::perf)
        return line + fmt::format("max abs err {:.3g}  max rel err {:.3g}  {:.2f} us (simulated)\n", max_abs, max_rel, *c.latency_us);
    if (ok) return line + fmt::format("max abs err {:.3g}  max rel err {:.3g}\n", max_abs, max_rel);
    return line + fmt::format("{}: {}\n", status_name(c.status), c.reason);
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
    int passed = 0;
    for (const auto& c : r.cases) {
        width = std::max(width, c.name.size());
        passed += c.status == EvalStatus::ok;
    }
    for (const auto& c : r.cases) out += case_line(c, width);
    out += fmt::format("  {} of {} cases passed\n", passed, r.cases.size());
    return out;
}

std::string render_summary(const std::vector<EvalResult>& results) {
    size_t width = 8;
    for (const auto& r : results) width = std::max(width, r.op_name.size());
    std::string out = fmt::format("\n{:<{}}  {:>6}  {:>6}  {:>8}  {:>14}  {}\n", "operator", width, "cases", "passed", "build s",
                                  "perf us (sim)", "status");
    int ok = 0;
    for (const auto& r : results) {
        int passed = 0;
        for (const auto& c : r.cases) passed += c.status == EvalStatus::ok;
        ok += r.status == EvalStatus::ok;
        std::string perf = "-";
        for (const auto& c : r.cases)
            if (c.role == CaseRole::perf && c.latency_us) {
                perf = fmt::format("{:.2f}", *c.latency_us);
                break;
            }
        out += fmt::format("{:<{}}  {:>6}  {:>6}  {:>8.1f}  {:>14}  {}\n", r.op_name, width, r.cases.size(), passed, r.build_seconds,
                           perf, status_name(r.status));
    }
    out += fmt::format("{} of {} operators passed (sim backend: Ascend C twin)\n", ok, results.size());
    return out;
}

std::string render_error(const Error& e) {
    std::string out = "ascendopt: error: " + e.message + "\n";
    if (!e.hint.empty()) out += "  hint: " + e.hint + "\n";
    if (!e.detail.empty()) out += e.detail + (e.detail.back() == '\n' ? "" : "\n");
    return out;
}

}  // namespace ascendopt
