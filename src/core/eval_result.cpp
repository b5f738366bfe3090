#include "core/eval_result.h"

#include <iterator>

namespace ascendopt {
namespace {

constexpr const char* k_names[] = {"ok", "build_failed", "tiling_failed", "run_failed",
                                   "timeout", "wrong_result", "resource_exceeded", "rejected", "golden_failed", "race"};

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
    if (c.first && !c.first->note.empty()) j["first_mismatch"]["note"] = c.first->note;
    return j;
}

OutputComparison comparison_from_json(const nlohmann::json& j) {
    OutputComparison c;
    c.name = j.at("name").get<std::string>();
    c.elements = j.at("elements").get<int64_t>();
    c.mismatches = j.at("mismatches").get<int64_t>();
    c.max_abs_error = j.at("max_abs_error").get<double>();
    c.max_rel_error = j.at("max_rel_error").get<double>();
    if (j.contains("first_mismatch")) {
        const auto& m = j.at("first_mismatch");
        c.first = Mismatch{c.name, m.at("flat_index").get<int64_t>(), m.at("index").get<std::vector<int64_t>>(),
                           m.value("lane", ""), m.at("actual").get<double>(), m.at("expected").get<double>(), m.value("note", "")};
    }
    return c;
}

CaseResult case_from_json(const nlohmann::json& j) {
    CaseResult c;
    c.name = j.at("name").get<std::string>();
    c.role = j.at("role").get<std::string>() == "perf" ? CaseRole::perf : CaseRole::check;
    c.status = parse_status(j.at("status").get<std::string>()).value();
    c.reason = j.value("reason", "");
    for (const auto& o : j.at("outputs")) c.outputs.push_back(comparison_from_json(o));
    c.run_seconds = j.at("run_seconds").get<double>();
    if (j.contains("latency")) {
        c.latency_us = j.at("latency").at("value").get<double>();
        c.latency_samples = j.at("latency").at("samples").get<std::vector<double>>();
        if (j.at("latency").contains("variants")) c.variant_latency_us = j.at("latency").at("variants").get<std::vector<double>>();
    }
    if (j.contains("twin")) c.twin = j.at("twin");
    c.log_tail = j.value("log_tail", "");
    c.known_defect = j.value("known_defect", "");
    if (j.contains("hidden_nonce")) c.hidden_nonce = std::stoull(j.at("hidden_nonce").get<std::string>());
    return c;
}

}  // namespace

const char* status_name(EvalStatus s) { return k_names[static_cast<int>(s)]; }

std::optional<EvalStatus> parse_status(const std::string& s) {
    for (size_t i = 0; i < std::size(k_names); ++i)
        if (s == k_names[i]) return static_cast<EvalStatus>(i);
    return std::nullopt;
}

const char* latency_source_of(const std::string& backend) { return backend == "npu" ? "npu" : "sim"; }

nlohmann::json to_json(const EvalResult& r) {
    nlohmann::json cases = nlohmann::json::array();
    for (const auto& c : r.cases) {
        nlohmann::json outs = nlohmann::json::array();
        for (const auto& o : c.outputs) outs.push_back(to_json(o));
        nlohmann::json j = {{"name", c.name}, {"role", role_name(c.role)}, {"status", status_name(c.status)},
                            {"outputs", outs}, {"run_seconds", c.run_seconds}};
        if (!c.reason.empty()) j["reason"] = c.reason;
        if (c.latency_us)
            j["latency"] = {{"value", *c.latency_us}, {"unit", "us"}, {"source", r.latency_source}, {"samples", c.latency_samples}};
        if (c.latency_us && !c.variant_latency_us.empty()) j["latency"]["variants"] = c.variant_latency_us;
        if (!c.twin.is_null()) j["twin"] = c.twin;
        if (!c.log_tail.empty()) j["log_tail"] = c.log_tail;
        if (!c.known_defect.empty()) {
            j["known_defect"] = c.known_defect;
            j["expected_failure"] = c.expected_failure();
        }
        // A decimal string: readers that hold JSON numbers as doubles (jq, JavaScript) would
        // round a 64-bit nonce and reproduce another shape.
        if (c.hidden_nonce) j["hidden_nonce"] = std::to_string(*c.hidden_nonce);
        cases.push_back(j);
    }
    nlohmann::json j = {{"operator", r.op_name}, {"dir", r.op_dir}, {"status", status_name(r.status)},
                        {"cases", cases}, {"build_seconds", r.build_seconds}, {"build_cached", r.build_cached},
                        {"backend", r.latency_source}, {"sandbox", r.sandboxed ? "bubblewrap" : "none"}};
    if (!r.reason.empty()) j["reason"] = r.reason;
    if (!r.build_log.empty()) j["build_log"] = r.build_log;
    if (r.replayed) j["replayed"] = true;
    return j;
}

std::optional<EvalResult> eval_result_from_json(const nlohmann::json& j) {
    // The documents are ascendopt's own, so any deviation (an older layout, a truncated file)
    // only means "not usable": the caller evaluates again.
    try {
        EvalResult r;
        r.op_name = j.at("operator").get<std::string>();
        r.op_dir = j.at("dir").get<std::string>();
        r.status = parse_status(j.at("status").get<std::string>()).value();
        r.reason = j.value("reason", "");
        r.build_log = j.value("build_log", "");
        for (const auto& c : j.at("cases")) r.cases.push_back(case_from_json(c));
        r.build_seconds = j.at("build_seconds").get<double>();
        r.build_cached = j.at("build_cached").get<bool>();
        r.sandboxed = j.at("sandbox").get<std::string>() != "none";
        r.replayed = j.value("replayed", false);
        r.latency_source = j.value("backend", "sim");
        return r;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

}  // namespace ascendopt
