#include "agent/optimize.h"

#include "search/tuner.h"
#include "util/files.h"

namespace ascendopt {
namespace {

namespace fs = std::filesystem;

// The input folder with its op_host/ and op_kernel/ files replaced by `files`.
Status write_optimized(const OperatorSource& original, const CandidateFiles& files, const fs::path& dest) {
    std::error_code ec;
    fs::remove_all(dest, ec);
    fs::create_directories(dest);
    for (const auto& e : fs::directory_iterator(original.root)) {
        const std::string name = e.path().filename().string();
        if (name == "baseline" || name == "op_host" || name == "op_kernel") continue;
        fs::copy(e.path(), dest / name, fs::copy_options::recursive, ec);
        if (ec) return make_error("cannot copy " + e.path().string() + ": " + ec.message());
    }
    for (const auto& [rel, text] : files) {
        fs::create_directories((dest / rel).parent_path());
        if (auto s = write_atomic(dest / rel, text); !s) return s;
    }
    return ok_status();
}

// Counts Stage I's calls to the LLM, so the run can say plainly when the model never answered.
class CountingProposer final : public Proposer {
public:
    CountingProposer(Proposer& inner, LlmUse& use) : m_inner(inner), m_use(use) {}
    Result<ChatReply> propose(const ChatRequest& request) override {
        auto reply = m_inner.propose(request);
        ++m_use.calls;
        if (reply) ++m_use.answered;
        else if (m_use.first_error.empty()) m_use.first_error = reply.error().message;
        return reply;
    }
    std::string describe() const override { return m_inner.describe(); }
    std::string model() const override { return m_inner.model(); }

private:
    Proposer& m_inner;
    LlmUse& m_use;
};

struct Stage2Outcome {
    CandidateFiles files;
    std::optional<double> best_us;
    std::string skipped;  // why Stage II did not run, when it did not
    nlohmann::json baseline_config, best_config;
};

Result<Stage2Outcome> run_stage2(const OperatorSource& op, const CandidateFiles& files, int64_t budget, Evaluator& evaluator,
                                 SharedRun& run, const OptimizeOptions& o) {
    Stage2Outcome out{files, std::nullopt};
    if (budget < 1) return out;
    const TuneOptions t = TuneOptions::for_stage2(evaluator.options(), o.search_seed.value_or(evaluator.options().seed), budget, o.out_dir / "stage2");
    auto tuned = tune(op, evaluator, t, [](const TuneProgress&) {}, &run);
    if (!tuned) return tuned.error();
    if (tuned->nothing_to_tune) {  // no tiling to search: Stage I's result stands
        out.skipped = "no tunable constants";
        return out;
    }
    out.best_us = tuned->best_us;
    out.baseline_config = tuned->summary.value("baseline_config", nlohmann::json());
    out.best_config = tuned->summary.value("best_config", nlohmann::json());
    for (auto& [rel, text] : out.files) {
        auto now = read_text(tuned->tuned_dir / rel);
        if (!now) return now.error();
        text = std::move(*now);
    }
    return out;
}

nlohmann::json summary_json(const OptimizeOptions& o, const EvalOptions& eval, const OptimizeResult& r, const std::string& name) {
    const Stage1Result& s1 = r.stage1;
    nlohmann::json accepted = nlohmann::json::array(), attempts = nlohmann::json::array();
    for (const auto& a : s1.accepted)
        accepted.push_back({{"record", a.record}, {"inspired_by", a.inspired_by}, {"record_operator", a.record_operator},
                            {"applied_as", a.applied_as}, {"family", a.family}, {"before_us", a.before_us},
                            {"after_us", a.after_us}, {"files", a.files}, {"diff", a.diff}});
    for (const auto& t : s1.attempts) attempts.push_back({{"record", t.record}, {"outcome", t.outcome}});
    nlohmann::json latencies = nlohmann::json::array();
    for (const auto& l : r.evaluations) latencies.push_back(l ? nlohmann::json(*l) : nlohmann::json());
    return {{"operator", name},
            {"bank", o.bank_path},
            {"budget", o.budget},
            {"seed", eval.seed},
            {"search_seed", o.search_seed.value_or(eval.seed)},
            {"proposer", o.proposer_identity},
            {"llm", {{"configured", r.llm.configured}, {"calls", r.llm.calls}, {"answered", r.llm.answered}, {"first_error", r.llm.first_error}}},
            {"latency_source", latency_source_of(eval.backend)},
            {"baseline_us", s1.baseline_us},
            {"after_stage1_us", s1.best_us},
            {"after_stage2_us", r.final_us},
            {"speedup", s1.baseline_us / r.final_us},
            {"evaluations", {{"stage1", r.stage1_evaluations}, {"stage2", r.stage2_evaluations}}},
            {"stage2_skipped", r.stage2_skipped},
            {"baseline_config", r.baseline_config},
            {"best_config", r.best_config},
            {"evaluation_latencies_us", latencies},
            {"accepted_rewrites", accepted},
            {"stage1_attempts", attempts},
            {"diagnoses", s1.diagnoses},
            {"episode", s1.episode},
            {"optimized", r.optimized_dir.string()}};
}

void say(const OptimizeOptions& o, const std::string& what) {
    if (o.progress) o.progress(what);
}

}  // namespace

Result<OptimizeResult> optimize_operator(const OperatorSource& op, Evaluator& evaluator, Bank& bank, const OptimizeOptions& o) {
    const EvalOptions& eval = evaluator.options();
    fs::create_directories(o.out_dir);
    const fs::path store_file = o.out_dir / "run.db";
    auto store = RunStore::open(store_file);
    if (!store) return store.error();
    const int64_t budget1 = std::max<int64_t>(2, int64_t(double(o.budget) * o.stage1_share));
    auto run = store->open_run("optimize", {{"operator", op.display_name()}, {"seed", eval.seed},
                                            {"search_seed", o.search_seed.value_or(eval.seed)}, {"soc", eval.soc},
                                            {"budget", o.budget}, {"stage1_budget", budget1}, {"top_k", o.top_k},
                                            {"proposer", o.proposer_identity}, {"stage2", o.stage2}});
    if (!run) return run.error();
    // One run, one ledger, one budget: Stage I may spend up to its share, Stage II the rest.
    auto ledger = EvaluationLedger::open(*store, *run, o.budget);
    if (!ledger) return ledger.error();
    ledger->limit_to(budget1);
    CandidateRunner runner(op, evaluator, *store, *ledger, o.out_dir);
    std::unique_ptr<Proposer> proposer;
    if (o.make_proposer) {
        auto made = o.make_proposer(*run);
        if (!made) return made.error();
        proposer = std::move(*made);
    }
    say(o, "stage I (" + (proposer ? proposer->describe() : std::string("transfer")) + "), up to " + std::to_string(budget1) + " of " +
               std::to_string(o.budget) + " evaluations");
    OptimizeResult r;
    r.llm.configured = proposer != nullptr;
    std::optional<CountingProposer> counted;
    if (proposer) counted.emplace(*proposer, r.llm);
    auto s1 = run_stage1(runner, bank, {.budget = budget1, .top_k = o.top_k, .embeddings = o.embeddings,
                                        .proposer = counted ? &*counted : nullptr,
                                        .templates = o.templates, .params = o.params, .soc = eval.soc});
    if (!s1) return s1.error();
    r.stage1 = std::move(*s1);
    // Stage I's candidates carry no configuration; counted so, a resumed run agrees.
    auto stage1_count = store->count(*run, nlohmann::json::object());
    if (!stage1_count) return stage1_count.error();
    r.stage1_evaluations = *stage1_count;
    auto stage1_op = runner.materialize(r.stage1.best);
    if (!stage1_op) return stage1_op.error();
    if (o.stage2) say(o, "stage II, " + std::to_string(o.budget - r.stage1_evaluations) + " evaluations");
    ledger->limit_to(o.budget);
    SharedRun shared{*ledger, store_file};
    auto s2 = run_stage2(*stage1_op, r.stage1.best, o.stage2 ? o.budget - r.stage1_evaluations : 0, evaluator, shared, o);
    if (!s2) return s2.error();
    if (!s2->skipped.empty()) say(o, "stage II skipped: " + s2->skipped);
    r.stage2_skipped = s2->skipped;
    r.baseline_config = s2->baseline_config;
    r.best_config = s2->best_config;
    auto all = store->count(*run);
    if (!all) return all.error();
    r.stage2_evaluations = *all - r.stage1_evaluations;
    const bool stage2_better = s2->best_us && *s2->best_us < r.stage1.best_us;
    r.final_us = stage2_better ? *s2->best_us : r.stage1.best_us;
    auto latencies = ledger->latencies();
    if (!latencies) return latencies.error();
    r.evaluations = std::move(*latencies);
    r.optimized_dir = o.out_dir / "optimized" / op.root.filename();
    if (auto w = write_optimized(op, stage2_better ? s2->files : r.stage1.best, r.optimized_dir); !w) return w.error();
    r.summary = summary_json(o, eval, r, op.display_name());
    if (auto w = write_atomic(o.out_dir / "summary.json", r.summary.dump(2) + "\n"); !w) return w.error();
    return r;
}

}  // namespace ascendopt
