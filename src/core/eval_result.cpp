#include "core/eval_result.h"

#include <iterator>

namespace ascendopt {
namespace {

constexpr const char* k_names[] = {"ok", "build_failed", "tiling_failed", "run_failed",
                                   "timeout", "wrong_result", "resource_exceeded", "rejected", "golden_failed"};

nlohmann::json to_json(const OutputComparison& c) {
    nlohmann::json j = {{"name", c.name},
                        {"elements", c.elements},
                        {"mismatches", c.mismatches},
                        {"max_abs_error", c.max_abs_error},
                        {"max_rel_error", c.max_rel_error}};
    if (c.first)
        j["first_mismatch"] = {{"flat_index", c.first->flat_index},
                               {"index", c.first->index},
                               {"actual", c.first->actual},
                               {"expected", c.first->expected}};
    if (c.first && !c.first->lane.empty()) j["first_mismatch"]["lane"] = c.first->lane;
    return j;
}

}  // namespace

const char* status_name(EvalStatus s) { return k_names[static_cast<int>(s)]; }

std::optional<EvalStatus> parse_status(const std::string& s) {
    for (size_t i = 0; i < std::size(k_names); ++i)
        if (s == k_names[i]) return static_cast<EvalStatus>(i);
    return std::nullopt;
}

nlohmann::json to_json(const EvalResult& r) {
    nlohmann::json cases = nlohmann::json::array();
    for (const auto& c : r.cases) {
        nlohmann::json outs = nlohmann::json::array();
        for (const auto& o : c.outputs) outs.push_back(to_json(o));
        nlohmann::json j = {{"name", c.name}, {"role", role_name(c.role)}, {"status", status_name(c.status)},
                            {"outputs", outs}, {"run_seconds", c.run_seconds}};
        if (!c.reason.empty()) j["reason"] = c.reason;
        if (c.latency_us)
            j["latency"] = {{"value", *c.latency_us}, {"unit", "us"}, {"source", "sim"}, {"samples", c.latency_samples}};
        if (!c.twin.is_null()) j["twin"] = c.twin;
        if (!c.log_tail.empty()) j["log_tail"] = c.log_tail;
        if (!c.known_defect.empty()) {
            j["known_defect"] = c.known_defect;
            j["expected_failure"] = c.expected_failure();
        }
        cases.push_back(j);
    }
    nlohmann::json j = {{"operator", r.op_name}, {"dir", r.op_dir}, {"status", status_name(r.status)},
                        {"cases", cases}, {"build_seconds", r.build_seconds}, {"build_cached", r.build_cached},
                        {"backend", "sim"}, {"sandbox", r.sandboxed ? "bubblewrap" : "none"}};
    if (!r.reason.empty()) j["reason"] = r.reason;
    if (!r.build_log.empty()) j["build_log"] = r.build_log;
    return j;
}

}  // namespace ascendopt
