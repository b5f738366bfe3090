#include "study/results.h"

#include <algorithm>

#include <fmt/format.h>

#include "study/metrics.h"

namespace ascendopt {
namespace {

using nlohmann::json;

OperatorOutcome outcome_of(const MethodRun& r) { return {r.op, r.level, r.baseline_us, r.evaluations}; }

json interval_json(const Interval& i) { return {{"mean", i.mean}, {"low", i.low}, {"high", i.high}, {"seeds", i.n}}; }

// A method's runs split by seed, seeds in the order they first appear.
std::vector<std::pair<uint64_t, std::vector<OperatorOutcome>>> outcomes_by_seed(const std::vector<MethodRun>& runs) {
    std::vector<std::pair<uint64_t, std::vector<OperatorOutcome>>> out;
    for (const auto& r : runs) {
        auto it = std::find_if(out.begin(), out.end(), [&](const auto& s) { return s.first == r.seed; });
        if (it == out.end()) it = out.insert(out.end(), {r.seed, {}});
        it->second.push_back(outcome_of(r));
    }
    return out;
}

json group_json(const GroupSummary& g) {
    json fast = json::object();
    for (const auto& [p, share] : g.fast) fast[fast_p_key(p)] = share;
    return {{"operators", g.operators}, {"gm", g.gm}, {"fast_p", fast}};
}

// Sums the per-operator "llm" totals (detail.llm, filled by bench from the call logs).
json llm_totals(const std::vector<MethodRun>& runs) {
    json t = {{"calls", 0}, {"failed", 0}, {"prompt_tokens", 0}, {"completion_tokens", 0}, {"cost_usd", 0.0}};
    for (const auto& r : runs) {
        const json llm = r.detail.value("llm", json::object());
        for (const char* k : {"calls", "failed", "prompt_tokens", "completion_tokens"}) t[k] = t[k].get<int64_t>() + llm.value(k, int64_t(0));
        t["cost_usd"] = t["cost_usd"].get<double>() + llm.value("cost_usd", 0.0);
    }
    return t;
}

}  // namespace

double run_speedup(const MethodRun& run) { return speedup(outcome_of(run)); }
double entry_speedup(const json& entry) { return run_speedup(method_run_from_json(entry)); }
std::string fast_p_key(double p) { return fmt::format("{:.1f}", p); }

json study_results(const StudyHeader& h, const std::vector<std::pair<std::string, std::vector<MethodRun>>>& runs) {
    json methods = json::object();
    json order = json::array();
    for (const auto& [name, method_runs] : runs) {
        json per_op = json::array();
        for (const auto& r : method_runs) per_op.push_back(to_json(r));
        const auto seeded = outcomes_by_seed(method_runs);
        std::vector<std::vector<OperatorOutcome>> by_seed;
        for (const auto& [seed, outcomes] : seeded) by_seed.push_back(outcomes);
        const SeededSummary ss = summarize_seeds(by_seed, size_t(h.budget));
        const MethodSummary& s = ss.combined;
        json levels = json::object();
        for (const auto& [level, g] : s.by_level) levels[level] = group_json(g);
        json per_seed = json::array();
        for (size_t k = 0; k < seeded.size(); ++k) {
            json entry = group_json(ss.per_seed[k].all);
            entry["seed"] = seeded[k].first;
            per_seed.push_back(entry);
        }
        json fast_intervals = json::object();
        for (const auto& [p, i] : ss.fast) fast_intervals[fast_p_key(p)] = interval_json(i);
        methods[name] = {{"summary",
                          {{"all", group_json(s.all)},
                           {"interval95", {{"gm", interval_json(ss.gm)}, {"fast_p", fast_intervals}}},
                           {"seeds", per_seed},
                           {"by_level", levels},
                           {"progress_gm", s.progress},
                           {"llm", llm_totals(method_runs)}}},
                         {"operators", per_op}};
        order.push_back(name);
    }
    return {{"suite", h.suite},          {"budget", h.budget}, {"seed", h.seed}, {"seeds", h.seeds}, {"rewind_share", h.rewind_share},
            {"latency_source", h.latency_source}, {"method_order", order}, {"methods", methods}};
}

std::string study_csv(const json& results) {
    std::string csv = "method,seed,operator,level,baseline_us,best_us,speedup,evaluations,llm_calls,llm_cost_usd\n";
    for (const auto& [name, m] : results["methods"].items())
        for (const auto& entry : m["operators"]) {
            const MethodRun run = method_run_from_json(entry);
            const double s = entry_speedup(entry);
            const json llm = run.detail.value("llm", json::object());
            csv += fmt::format("{},{},{},{},{:.4f},{:.4f},{:.4f},{},{},{:.6f}\n", name, run.seed, run.op, run.level, run.baseline_us, run.baseline_us / s, s,
                               run.evaluations.size(), llm.value("calls", int64_t(0)), llm.value("cost_usd", 0.0));
        }
    return csv;
}

}  // namespace ascendopt
