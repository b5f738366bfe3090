#include "study/methods.h"

#include "agent/optimize.h"
#include "search/tuner.h"

namespace ascendopt {
namespace {

Result<MethodRun> run_stage2_only(const OperatorSource& op, MethodContext& c) {
    TuneOptions t;
    t.budget = c.budget;
    t.seed = c.eval.seed;
    t.out_dir = c.out_dir;
    t.workers = c.eval.jobs;
    t.eval = c.eval;
    auto tuned = tune(op, c.builder, c.golden, t, [](const TuneProgress&) {});
    if (!tuned) return tuned.error();
    auto store = RunStore::open(c.out_dir / "run.db");
    if (!store) return store.error();
    auto latencies = store->latencies();
    if (!latencies) return latencies.error();
    MethodRun r{"stage2", op.display_name(), tuned->baseline_us.value_or(0), std::move(*latencies), tuned->summary};
    return r;
}

Result<MethodRun> run_optimize(const std::string& name, const OperatorSource& op, MethodContext& c, bool stage2, Bank& bank) {
    OptimizeOptions o;
    o.budget = c.budget;
    o.stage1_share = stage2 ? 0.5 : 1.0;
    o.stage2 = stage2;
    o.out_dir = c.out_dir;
    o.eval = c.eval;
    o.bank_path = c.bank_path;
    o.make_proposer = c.make_proposer;
    o.proposer_identity = c.proposer_identity;
    o.templates = c.templates;
    o.params = c.params;
    auto r = optimize_operator(op, c.builder, c.golden, bank, o);
    if (!r) return r.error();
    return MethodRun{name, op.display_name(), r->stage1.baseline_us, r->evaluations, r->summary};
}

}  // namespace

const std::vector<MethodInfo>& study_methods() {
    static const std::vector<MethodInfo> methods = {
        {"ascendopt", false, true, true, "Stage I (LLM when configured, else transfer) then Stage II, with the experience bank"},
        {"stage1", false, true, true, "Stage I alone (ablation)"},
        {"stage1-no-experience", true, false, true, "Stage I with an empty bank (ablation)"},
        {"stage2", false, false, true, "Stage II alone: tiling search"},
        {"best-of-n", true, false, false, "N independent samples of one prompt, the best correct kept"},
        {"openevolve", true, false, false, "MAP-Elites islands with diff mutations (OpenEvolve style)"},
    };
    return methods;
}

const MethodInfo* find_method(const std::string& name) {
    for (const auto& m : study_methods())
        if (m.name == name) return &m;
    return nullptr;
}

nlohmann::json to_json(const MethodRun& r) {
    nlohmann::json evaluations = nlohmann::json::array();
    for (const auto& e : r.evaluations) evaluations.push_back(e ? nlohmann::json(*e) : nlohmann::json());
    return {{"method", r.method}, {"operator", r.op}, {"baseline_us", r.baseline_us}, {"evaluations_us", evaluations}, {"detail", r.detail}};
}

MethodRun method_run_from_json(const nlohmann::json& j) {
    MethodRun r;
    r.method = j.value("method", "");
    r.op = j.value("operator", "");
    r.baseline_us = j.value("baseline_us", 0.0);
    for (const auto& e : j.value("evaluations_us", nlohmann::json::array()))
        r.evaluations.push_back(e.is_number() ? std::optional<double>(e.get<double>()) : std::nullopt);
    r.detail = j.value("detail", nlohmann::json::object());
    return r;
}

Result<MethodRun> run_method(const MethodInfo& m, const OperatorSource& op, MethodContext& c) {
    if (!m.built) return make_error("the " + m.name + " method is not built yet");
    if (m.needs_llm && !c.make_proposer) return make_error("the " + m.name + " method needs an LLM", "see docs/llm.md");
    if (m.name == "stage2") return run_stage2_only(op, c);
    if (m.name == "stage1-no-experience") {
        auto empty = Bank::open(c.out_dir / "empty-bank.db");
        if (!empty) return empty.error();
        return run_optimize(m.name, op, c, false, *empty);
    }
    if (!c.bank) return make_error("the " + m.name + " method needs an experience bank", "pass --bank FILE (ascendopt rewind builds one)");
    return run_optimize(m.name, op, c, m.name == "ascendopt", *c.bank);
}

}  // namespace ascendopt
