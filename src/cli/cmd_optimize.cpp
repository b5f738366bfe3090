// `ascendopt optimize OP --bank FILE --budget N`: Stage I (kernel rewrites from retrieved
// experience) then Stage II (tiling search) under one budget. Writes the optimized operator
// folder (same layout as the input, diffable against it) and summary.json. Both stages keep
// their evaluations in run stores under --out, so a killed run resumes where it stopped.
#include <unistd.h>

#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "agent/stage1.h"
#include "cli/config.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/report_text.h"
#include "cli/session.h"
#include "search/tuner.h"
#include "util/files.h"

namespace ascendopt {
namespace {

namespace fs = std::filesystem;

struct OptimizeArgs {
    std::string op;
    std::string bank;
    std::string out;
    int64_t budget = 30;
    double stage1_share = 0.5;
    size_t top_k = 5;
    bool json = false;
    bool quiet = false;
    bool no_llm = false;
    SettingFlags settings;
    EvalOptions eval;
};

// The LLM Stage I talks to, when one is configured and not refused with --no-llm.
struct StageOneLlm {
    std::unique_ptr<Proposer> proposer;
    std::optional<TemplateStore> templates;
    GenerationParams params;
    std::unique_ptr<EmbeddingsClient> embeddings;
};

// What writes Stage I's rewrites, as part of the run's identity: a run resumed with another
// proposer is another run.
std::string proposer_identity(const OptimizeArgs& a) {
    auto settings = Settings::resolve(a.settings);
    auto config = settings ? llm_config(*settings) : Result<LlmConfig>(settings.error());
    if (a.no_llm || !config || config->kind.empty()) return "transfer";
    return config->kind + ":" + config->model;
}

Result<StageOneLlm> stage1_llm(const OptimizeArgs& a, const Toolchain& tc, int64_t run) {
    StageOneLlm out;
    auto settings = Settings::resolve(a.settings);
    if (!settings) return settings.error();
    auto config = llm_config(*settings);
    if (!config) return config.error();
    out.embeddings = make_embeddings(*config);
    if (a.no_llm || config->kind.empty()) return out;
    auto log = SqliteCallLog::open(fs::path(a.out) / "run.db");
    if (!log) return log.error();
    config->resume = fs::path(a.out) / "llm-replies.jsonl";  // a resumed Stage I sees the same replies
    auto proposer = make_proposer(*config, std::shared_ptr<CallLog>(std::move(*log)), run);
    if (!proposer) return proposer.error();
    out.proposer = std::move(*proposer);
    out.templates.emplace(tc.share_dir / "templates", settings->get("templates.dir"));
    out.params = config->params;
    return out;
}

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

struct Stage2Outcome {
    CandidateFiles files;
    std::optional<double> best_us;
    int64_t evaluations = 0;
};

Result<Stage2Outcome> run_stage2(const OperatorSource& op, const CandidateFiles& files, int64_t budget, OptimizeArgs& a, EvalSession& s) {
    Stage2Outcome out{files, std::nullopt, 0};
    if (budget < 1) return out;
    TuneOptions t;
    t.budget = budget;
    t.seed = a.eval.seed;
    t.out_dir = fs::path(a.out) / "stage2";
    t.workers = a.eval.jobs;
    t.eval = a.eval;
    auto tuned = tune(op, *s.builder, *s.golden, t, [&](const TuneProgress& p) {
        if (!a.quiet && isatty(STDERR_FILENO)) std::cerr << fmt::format("\r\033[Kstage II: {}/{} evaluations", p.used, p.budget) << std::flush;
    });
    if (!a.quiet && isatty(STDERR_FILENO)) std::cerr << "\n";
    if (!tuned) return tuned.error();
    out.best_us = tuned->best_us;
    out.evaluations = tuned->evaluations;
    for (auto& [rel, text] : out.files) {
        auto now = read_text(tuned->tuned_dir / rel);
        if (!now) return now.error();
        text = std::move(*now);
    }
    return out;
}

nlohmann::json summary_json(const OptimizeArgs& a, const Stage1Result& s1, int64_t used1, const Stage2Outcome& s2, const fs::path& dest,
                            const std::string& name) {
    const double final_us = s2.best_us ? std::min(*s2.best_us, s1.best_us) : s1.best_us;
    nlohmann::json accepted = nlohmann::json::array(), attempts = nlohmann::json::array();
    for (const auto& r : s1.accepted)
        accepted.push_back({{"record", r.record}, {"inspired_by", r.inspired_by}, {"family", r.family}, {"before_us", r.before_us},
                            {"after_us", r.after_us}, {"files", r.files}});
    for (const auto& t : s1.attempts) attempts.push_back({{"record", t.record}, {"outcome", t.outcome}});
    return {{"operator", name},
            {"bank", a.bank},
            {"budget", a.budget},
            {"seed", a.eval.seed},
            {"latency_source", "sim"},
            {"baseline_us", s1.baseline_us},
            {"after_stage1_us", s1.best_us},
            {"after_stage2_us", final_us},
            {"speedup", s1.baseline_us / final_us},
            {"evaluations", {{"stage1", used1}, {"stage2", s2.evaluations}}},
            {"accepted_rewrites", accepted},
            {"stage1_attempts", attempts},
            {"diagnoses", s1.diagnoses},
            {"episode", s1.episode},
            {"optimized", dest.string()}};
}

int run_optimize(OptimizeArgs& a) {
    if (!fs::exists(a.bank)) {
        std::cerr << render_error(make_error("no experience bank at " + a.bank, "build one first: ascendopt rewind ops --bank " + a.bank));
        return k_exit_bad_input;
    }
    auto op = load_operator(a.op);
    if (!op) {
        std::cerr << render_error(op.error());
        return k_exit_bad_input;
    }
    if (a.out.empty()) a.out = "optimize-" + op->display_name();
    auto opened = open_session(a.eval);
    if (auto* code = std::get_if<int>(&opened)) return *code;
    EvalSession& session = std::get<EvalSession>(opened);
    fs::create_directories(a.out);
    auto store = RunStore::open(fs::path(a.out) / "run.db");
    auto bank = Bank::open(a.bank);
    if (!store || !bank) {
        std::cerr << render_error(!store ? store.error() : bank.error());
        return k_exit_environment;
    }
    const int64_t budget1 = std::max<int64_t>(2, int64_t(double(a.budget) * a.stage1_share));
    auto run = store->open_run("optimize-stage1", {{"operator", op->display_name()}, {"seed", a.eval.seed}, {"soc", a.eval.soc},
                                                   {"budget", a.budget}, {"stage1_budget", budget1}, {"top_k", a.top_k},
                                                   {"proposer", proposer_identity(a)}});
    auto ledger = run ? EvaluationLedger::open(*store, *run, budget1) : Result<EvaluationLedger>(run.error());
    auto scratch_dir = make_temp_dir(fs::path(a.out), "case-data");
    if (!ledger || !scratch_dir) {
        std::cerr << render_error(!ledger ? ledger.error() : scratch_dir.error());
        return k_exit_environment;
    }
    ScratchDir scratch(*scratch_dir);
    auto evaluator = make_twin_evaluator(*session.builder, *session.golden, a.eval, std::make_shared<CaseDataStore>(*scratch_dir, *session.golden));
    CandidateRunner runner(*op, *evaluator, *store, *ledger, a.out);
    auto llm = stage1_llm(a, session.toolchain, *run);
    if (!llm) {
        std::cerr << render_error(llm.error());
        return k_exit_bad_input;
    }
    if (!a.quiet)
        std::cerr << fmt::format("optimize: stage I ({}), up to {} of {} evaluations\n", llm->proposer ? llm->proposer->describe() : "transfer",
                                 budget1, a.budget);
    auto s1 = run_stage1(runner, *bank, {.budget = budget1, .top_k = a.top_k, .embeddings = llm->embeddings.get(),
                                         .proposer = llm->proposer.get(), .templates = llm->templates ? &*llm->templates : nullptr,
                                         .params = llm->params, .soc = a.eval.soc});
    if (!s1) {
        std::cerr << render_error(s1.error());
        return exit_code_for(s1.error());
    }
    const int64_t used1 = ledger->budget().used();
    auto stage1_op = runner.materialize(s1->best);
    if (!stage1_op) {
        std::cerr << render_error(stage1_op.error());
        return k_exit_environment;
    }
    if (!a.quiet) std::cerr << fmt::format("optimize: stage II, {} evaluations\n", a.budget - used1);
    auto s2 = run_stage2(*stage1_op, s1->best, a.budget - used1, a, session);
    if (!s2) {
        std::cerr << render_error(s2.error());
        return exit_code_for(s2.error());
    }
    const fs::path dest = fs::path(a.out) / "optimized" / op->root.filename();
    const bool stage2_better = s2->best_us && *s2->best_us < s1->best_us;
    if (auto w = write_optimized(*op, stage2_better ? s2->files : s1->best, dest); !w) {
        std::cerr << render_error(w.error());
        return k_exit_environment;
    }
    const nlohmann::json summary = summary_json(a, *s1, used1, *s2, dest, op->display_name());
    (void)write_atomic(fs::path(a.out) / "summary.json", summary.dump(2) + "\n");
    if (a.json) {
        std::cout << summary.dump(2) << "\n";
        return k_exit_ok;
    }
    std::cout << fmt::format("{}: {:.2f} us -> {:.2f} us after stage I -> {:.2f} us after stage II ({:.2f}x, simulated)\n", op->display_name(),
                             s1->baseline_us, s1->best_us, summary["after_stage2_us"].get<double>(), summary["speedup"].get<double>());
    for (const auto& r : s1->accepted)
        std::cout << fmt::format("  accepted: record #{} {} ({:.2f} -> {:.2f} us)\n", r.record, r.family, r.before_us, r.after_us);
    std::cout << fmt::format("evaluations: {} in stage I, {} in stage II\noptimized operator: {}\nsummary: {}\n", used1, s2->evaluations,
                             dest.string(), (fs::path(a.out) / "summary.json").string());
    return k_exit_ok;
}

}  // namespace

CommandRunner add_optimize_command(CLI::App& app) {
    auto a = std::make_shared<OptimizeArgs>();
    CLI::App* cmd = app.add_subcommand("optimize", "Stage I (rewrites from experience) then Stage II (tiling search) under one budget");
    cmd->add_option("operator", a->op, "Operator folder, folder with ascendopt.toml, or manifest file")->required();
    cmd->add_option("--bank", a->bank, "Experience bank (from ascendopt rewind)")->required();
    cmd->add_option("--budget", a->budget, "Unique evaluations for both stages")->check(CLI::Range(2, 100000))->capture_default_str();
    cmd->add_option("--stage1-share", a->stage1_share, "Share of the budget Stage I may use; Stage II gets the rest")
        ->check(CLI::Range(0.0, 1.0))
        ->capture_default_str();
    cmd->add_option("--top-k", a->top_k, "Experience records retrieved per diagnosis")->capture_default_str();
    cmd->add_option("--out", a->out, "Output folder (run stores, optimized operator, summary.json); rerun to resume")
        ->default_str("optimize-<OpType>");
    cmd->add_flag("--no-llm", a->no_llm, "Stage I uses the transfer proposer even when an LLM is configured");
    cmd->add_flag("--json", a->json, "Print the summary as JSON");
    cmd->add_flag("--quiet,-q", a->quiet, "No progress on stderr");
    add_common_eval_options(*cmd, a->eval);
    add_setting_flags(*cmd, a->settings);
    cmd->footer(k_exit_codes_help);
    return [a] { return run_optimize(*a); };
}

}  // namespace ascendopt
