#include "cli/report_check.h"

#include <fmt/format.h>

#include <algorithm>

namespace ascendopt {
namespace {

std::string cases_cell(const OperatorCheck& c) {
    if (!c.builds) return "-";
    if (c.mode == "smoke") return c.cases == 0 ? "smoke: -" : c.passes() ? "smoke: ran" : "smoke: failed";
    std::string s = fmt::format("{}/{}", c.passed, c.cases - c.known_defects);
    if (c.known_defects > 0) s += fmt::format(" +{} XFAIL", c.known_defects);
    return s;
}

std::string result_cell(const OperatorCheck& c) {
    if (c.passes()) return "pass";
    std::string s = c.failure;
    if (!c.failed_cases.empty() && c.mode == "cases") {
        s += " [failed:";
        for (size_t i = 0; i < c.failed_cases.size() && i < 4; ++i) s += " " + c.failed_cases[i];
        if (c.failed_cases.size() > 4) s += fmt::format(" and {} more", c.failed_cases.size() - 4);
        s += "]";
    }
    return s;
}

std::string operator_list(const std::vector<std::string>& ops) {
    std::string s;
    for (size_t i = 0; i < ops.size() && i < 6; ++i) s += (i ? ", " : "") + ops[i];
    if (ops.size() > 6) s += fmt::format(" and {} more", ops.size() - 6);
    return s;
}

}  // namespace

std::string check_summary_line(const std::vector<OperatorCheck>& checks) {
    const auto builds = std::count_if(checks.begin(), checks.end(), [](const OperatorCheck& c) { return c.builds; });
    const auto passes = std::count_if(checks.begin(), checks.end(), [](const OperatorCheck& c) { return c.passes(); });
    const auto outside = std::count_if(checks.begin(), checks.end(), [](const OperatorCheck& c) { return !c.out_of_scope.empty(); });
    std::string line = fmt::format("{} of {} operators build, {} pass", builds, checks.size() - outside, passes);
    if (outside > 0) line += fmt::format(" ({} more out of scope: they need several devices)", outside);
    return line;
}

std::string check_progress_line(const OperatorCheck& c) {
    if (!c.out_of_scope.empty()) return fmt::format("{}: out of scope: {}", c.name, c.out_of_scope);
    if (!c.builds) return fmt::format("{}: {}: {} ({:.1f} s)", c.name, c.host_builds ? "host code builds" : "does not build", c.failure, c.seconds);
    if (c.mode == "smoke") return fmt::format("{}: builds, smoke run {} ({:.1f} s)", c.name, c.passes() ? "ok" : c.failure, c.seconds);
    return fmt::format("{}: builds, {} of {} cases pass{} ({:.1f} s)", c.name, c.passed, c.cases - c.known_defects,
                       c.known_defects ? fmt::format(", {} known defects", c.known_defects) : "", c.seconds);
}

std::string render_check(const std::string& tree, const std::vector<OperatorCheck>& checks, bool details) {
    size_t width = 8;
    for (const auto& c : checks) width = std::max(width, c.name.size());
    std::string out = fmt::format("check  {}  ({} operator{})\n", tree, checks.size(), checks.size() == 1 ? "" : "s");
    out += fmt::format("{:<{}}  {:<6}  {:<16}  {}\n", "operator", width, "builds", "cases", "result");
    for (const auto& c : checks)
        out += fmt::format("{:<{}}  {:<6}  {:<16}  {}\n", c.name, width,
                           !c.out_of_scope.empty() ? "-" : c.builds ? "yes" : c.host_builds ? "host" : "no", cases_cell(c),
                           result_cell(c));
    if (details)
        for (const auto& c : checks)
            if (!c.passes() && !c.detail.empty()) out += fmt::format("\n--- {} ---\n{}\n", c.name, c.detail);
    const auto ranks = rank_missing_apis(checks);
    if (!ranks.empty()) {
        out += "\nmissing APIs, by operators blocked:\n";
        for (const auto& r : ranks) out += fmt::format("  {:>3}  {}  ({})\n", r.operators.size(), r.api, operator_list(r.operators));
    }
    out += "\n" + check_summary_line(checks) + "\n";
    return out;
}

nlohmann::json check_json(const std::string& tree, const std::vector<OperatorCheck>& checks, bool finished) {
    nlohmann::json ops = nlohmann::json::array(), missing = nlohmann::json::array();
    for (const auto& c : checks) ops.push_back(to_json(c));
    for (const auto& r : rank_missing_apis(checks)) missing.push_back({{"api", r.api}, {"operators", r.operators}});
    return {{"tree", tree}, {"finished", finished}, {"operators", ops}, {"missing_apis", missing}, {"summary", check_summary_line(checks)}};
}

}  // namespace ascendopt
