#include "study/methods.h"

#include "agent/edit_apply.h"
#include "agent/hunks.h"
#include "agent/optimize.h"
#include "agent/prompts.h"
#include "search/tuner.h"
#include "study/openevolve.h"
#include "util/files.h"

namespace ascendopt {
namespace {

// An operator with no tunable constants gives Stage II nothing to search: its baseline is
// measured once (the run's one evaluation) and the method reports finding nothing.
Result<MethodRun> baseline_only(const OperatorSource& op, MethodContext& c) {
    auto store = RunStore::open(c.out_dir / "run.db");
    if (!store) return store.error();
    auto run = store->open_run("stage2-baseline", {{"operator", op.display_name()}, {"seed", c.evaluator.options().seed}, {"search_seed", c.search_seed}});
    if (!run) return run.error();
    auto session = CandidateSession::open(op, c.evaluator, {*store, *run, c.budget, c.out_dir});
    if (!session) return session.error();
    auto start = (*session)->runner().measure_original();
    if (!start) return start.error();
    auto latencies = (*session)->ledger().latencies();
    if (!latencies) return latencies.error();
    return MethodRun{"stage2", op.display_name(), start->latency_us(), std::move(*latencies), {{"skipped", "no tunable constants"}}};
}

Result<MethodRun> run_stage2_only(const OperatorSource& op, MethodContext& c) {
    auto tuned = tune(op, c.evaluator, TuneOptions::for_stage2(c.evaluator.options(), c.search_seed, c.budget, c.out_dir), [](const TuneProgress&) {});
    if (!tuned) return tuned.error();
    if (tuned->nothing_to_tune) return baseline_only(op, c);
    MethodRun r{"stage2", op.display_name(), tuned->baseline_us.value_or(0), tuned->latencies, tuned->summary};
    return r;
}

Result<MethodRun> run_optimize(const std::string& name, const OperatorSource& op, MethodContext& c, bool stage2, Bank& bank) {
    OptimizeOptions o;
    o.budget = c.budget;
    o.stage1_share = stage2 ? 0.5 : 1.0;
    o.stage2 = stage2;
    o.out_dir = c.out_dir;
    o.search_seed = c.search_seed;
    o.bank_path = c.bank_path;
    o.make_proposer = c.make_proposer;
    o.proposer_identity = c.proposer_identity;
    o.templates = c.templates;
    o.params = c.params;
    auto r = optimize_operator(op, c.evaluator, bank, o);
    if (!r) return r.error();
    return MethodRun{name, op.display_name(), r->stage1.baseline_us, r->evaluations, r->summary};
}

// N independent samples of one prompt (the rewrite template with the rules' diagnosis and no
// experience); every usable reply is evaluated, the best correct one kept. At most `budget`
// samples are drawn, so a model that never answers usably cannot loop forever.
Result<MethodRun> run_best_of_n(const OperatorSource& op, MethodContext& c) {
    auto search = start_llm_search("best-of-n", op, c, nlohmann::json::object());
    if (!search) return search.error();
    LlmSearch& s = **search;
    CandidateRunner& runner = s.runner();
    const CandidateFiles& files = s.files;
    const double baseline = s.baseline_us();
    auto request = make_request(*c.templates, "rewrite",
                                {{"operator", op.display_name()}, {"soc", c.evaluator.options().soc}, {"latency", std::to_string(baseline) + " us (simulated)"},
                                 {"diagnosis", diagnose(s.base.record.metrics.value("profile", nlohmann::json::object()), files)},
                                 {"experience", "(none: best-of-n samples without experience)\n"}, {"history", "(nothing yet)\n"},
                                 {"files", render_files(files)}},
                                c.params, "best-of-n");
    if (!request) return request.error();
    std::pair<double, CandidateFiles> best{baseline, files};
    for (int64_t sample = 1; sample < c.budget && runner.ledger().budget().used() < c.budget; ++sample) {
        auto reply = s.proposer->propose(*request);
        if (!reply) continue;
        const AppliedReply applied = apply_reply(reply->text, files);
        if (!applied.ok()) continue;
        auto evaluated = runner.evaluate(applied.files);
        if (!evaluated) return evaluated.error();
        if (!*evaluated) break;
        if ((*evaluated)->ok() && *(*evaluated)->record.latency_us < best.first) best = {*(*evaluated)->record.latency_us, applied.files};
    }
    auto latencies = s.store->latencies(s.run);
    if (!latencies) return latencies.error();
    nlohmann::json detail = {{"samples_evaluated", runner.ledger().budget().used() - 1}};
    if (best.first < baseline) detail["best_diff"] = unified_diff(files, best.second);
    return MethodRun{"best-of-n", op.display_name(), baseline, std::move(*latencies), std::move(detail)};
}

}  // namespace

Result<std::unique_ptr<LlmSearch>> start_llm_search(const std::string& method, const OperatorSource& op, MethodContext& c, nlohmann::json settings) {
    auto s = std::make_unique<LlmSearch>();
    auto store = RunStore::open(c.out_dir / "run.db");
    if (!store) return store.error();
    s->store.emplace(std::move(*store));
    settings.update({{"operator", op.display_name()}, {"seed", c.evaluator.options().seed}, {"search_seed", c.search_seed}, {"budget", c.budget},
                     {"proposer", c.proposer_identity}});
    auto run = s->store->open_run(method, settings);
    if (!run) return run.error();
    s->run = *run;
    auto session = CandidateSession::open(op, c.evaluator, {*s->store, s->run, c.budget, c.out_dir});
    if (!session) return session.error();
    s->session = std::move(*session);
    auto proposer = c.make_proposer(s->run);
    if (!proposer) return proposer.error();
    s->proposer = std::move(*proposer);
    auto start = s->runner().measure_original();
    if (!start) return start.error();
    s->files = std::move(start->files);
    s->base = std::move(start->evaluated);
    return s;
}

namespace {

Result<MethodRun> run_ascendopt(const OperatorSource& op, MethodContext& c) {
    if (!c.bank) return make_error("the ascendopt method needs an experience bank", "pass --bank FILE (ascendopt rewind builds one)");
    return run_optimize("ascendopt", op, c, true, *c.bank);
}

Result<MethodRun> run_stage1_only(const OperatorSource& op, MethodContext& c) {
    if (!c.bank) return make_error("the stage1 method needs an experience bank", "pass --bank FILE (ascendopt rewind builds one)");
    return run_optimize("stage1", op, c, false, *c.bank);
}

Result<MethodRun> run_stage1_without_experience(const OperatorSource& op, MethodContext& c) {
    auto empty = Bank::open(c.out_dir / "empty-bank.db");
    if (!empty) return empty.error();
    return run_optimize("stage1-no-experience", op, c, false, *empty);
}

}  // namespace

const std::vector<MethodInfo>& study_methods() {
    static const std::vector<MethodInfo> methods = {
        // name, needs_llm, uses_llm, needs_bank, description, run
        {"ascendopt", false, true, true, "Stage I (LLM when configured, else transfer) then Stage II, with the experience bank", run_ascendopt},
        {"stage1", false, true, true, "Stage I alone (ablation)", run_stage1_only},
        {"stage1-no-experience", true, true, false, "Stage I with an empty bank (ablation)", run_stage1_without_experience},
        {"stage2", false, false, false, "Stage II alone: tiling search", run_stage2_only},
        {"best-of-n", true, true, false, "N independent samples of one prompt, the best correct kept", run_best_of_n},
        {"openevolve", true, true, false, "MAP-Elites islands with diff mutations (OpenEvolve style)",
         [](const OperatorSource& op, MethodContext& c) { return run_openevolve(op, c); }},
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
    return {{"method", r.method}, {"operator", r.op},          {"level", r.level},
            {"seed", r.seed},     {"baseline_us", r.baseline_us}, {"evaluations_us", evaluations}, {"detail", r.detail}};
}

MethodRun method_run_from_json(const nlohmann::json& j) {
    MethodRun r;
    r.method = j.value("method", "");
    r.op = j.value("operator", "");
    r.level = j.value("level", "all");
    r.seed = j.value("seed", uint64_t(0));
    r.baseline_us = j.value("baseline_us", 0.0);
    for (const auto& e : j.value("evaluations_us", nlohmann::json::array()))
        r.evaluations.push_back(e.is_number() ? std::optional<double>(e.get<double>()) : std::nullopt);
    r.detail = j.value("detail", nlohmann::json::object());
    return r;
}

Status check_budget(const MethodInfo& m, int64_t budget, int64_t rewind_share) {
    const int64_t charged = m.needs_bank ? rewind_share : 0;
    if (budget - charged >= 2) return ok_status();
    return make_error("a budget of " + std::to_string(budget) + " leaves " + std::to_string(budget - charged) + " evaluations to " + m.name +
                          " after the rewind share of " + std::to_string(charged),
                      "raise --budget or lower --rewind-share");
}

Result<MethodRun> run_method(const MethodInfo& m, const OperatorSource& op, MethodContext& c) {
    if (m.needs_llm && !c.make_proposer) return make_error("the " + m.name + " method needs an LLM", "see docs/llm.md");
    if (auto ok = check_budget(m, c.budget, c.rewind_share); !ok) return ok.error();
    const int64_t charged = m.needs_bank ? c.rewind_share : 0;
    std::filesystem::create_directories(c.out_dir);
    MethodContext own = c;
    own.budget -= charged;
    auto run = m.run(op, own);
    if (!run) return run.error();
    run->evaluations.insert(run->evaluations.begin(), size_t(charged), std::nullopt);
    run->detail["rewind_charged"] = charged;
    return run;
}

}  // namespace ascendopt
