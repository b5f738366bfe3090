// `ascendopt optimize OP --bank FILE --budget N`: Stage I (kernel rewrites from retrieved
// experience) then Stage II (tiling search) under one budget. Writes the optimized operator
// folder (same layout as the input, diffable against it) and summary.json. Both stages keep
// their evaluations in run stores under --out, so a killed run resumes where it stopped.

#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "agent/optimize.h"
#include "cli/config.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/report_text.h"
#include "cli/run_llm.h"
#include "cli/session.h"

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
    RunLlm llm;  // empty make_proposer: the transfer proposer
    std::optional<TemplateStore> templates;
    std::unique_ptr<EmbeddingsClient> embeddings;
};

Result<StageOneLlm> stage1_llm(const OptimizeArgs& a, const Toolchain& tc, const fs::path& out) {
    StageOneLlm r;
    auto settings = Settings::resolve(a.settings);
    if (!settings) return settings.error();
    auto config = llm_config(*settings);
    if (!config) return config.error();
    r.embeddings = make_embeddings(*config);
    if (a.no_llm || config->kind.empty()) return r;
    auto llm = run_llm(*config, out, out / "run.db");
    if (!llm) return llm.error();
    r.llm = std::move(*llm);
    r.templates.emplace(tc.share_dir / "templates", settings->get("templates.dir"));
    return r;
}

// Stage I with an LLM that never answered did nothing an LLM was asked for: an error (exit 5),
// though Stage II may still have tuned and the summary is written. Without an LLM, say so
// (unless quiet: the JSON summary says it too).
int say_what_the_llm_did(const LlmUse& llm, const fs::path& summary, bool quiet) {
    if (!llm.configured) {
        if (quiet) return k_exit_ok;
        std::cerr << "ascendopt: note: no LLM configured: Stage I transferred rewrites from the bank without one (ascendopt config show)\n";
        return k_exit_ok;
    }
    if (llm.calls == 0) {
        if (quiet) return k_exit_ok;
        std::cerr << "ascendopt: warning: Stage I sent the LLM no request (no diagnosis or experience to act on); see " << summary.string()
                  << "\n";
        return k_exit_ok;
    }
    if (llm.answered > 0) return k_exit_ok;
    std::cerr << render_error(make_error("Stage I never reached the LLM: all " + std::to_string(llm.calls) +
                                             " calls failed, so no rewrite was proposed; the first failure: " + llm.first_error,
                                         "check the endpoint with `ascendopt llm ping`; what ran is in " + summary.string()));
    return k_exit_llm;
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
    auto opened = open_session(a.eval);
    if (auto* code = std::get_if<int>(&opened)) return *code;
    EvalSession& session = std::get<EvalSession>(opened);
    auto bank = Bank::open(a.bank);
    if (!bank) {
        std::cerr << render_error(bank.error());
        return k_exit_environment;
    }
    OptimizeOptions o;
    o.budget = a.budget;
    o.stage1_share = a.stage1_share;
    o.top_k = a.top_k;
    o.out_dir = a.out.empty() ? fs::path("optimize-" + op->display_name()) : fs::path(a.out);
    o.bank_path = a.bank;
    fs::create_directories(o.out_dir);
    auto llm = stage1_llm(a, session.toolchain, o.out_dir);
    if (!llm) {
        std::cerr << render_error(llm.error());
        return k_exit_bad_input;
    }
    o.make_proposer = llm->llm.make_proposer;
    o.proposer_identity = llm->llm.identity;
    o.templates = llm->templates ? &*llm->templates : nullptr;
    o.params = llm->llm.params;
    o.embeddings = llm->embeddings.get();
    if (!a.quiet) o.progress = [](const std::string& what) { std::cerr << "optimize: " << what << "\n"; };
    auto r = optimize_operator(*op, *session.evaluator, *bank, o);
    if (!r) {
        std::cerr << render_error(r.error());
        return exit_code_for(r.error());
    }
    const fs::path summary = o.out_dir / "summary.json";
    if (a.json) {
        std::cout << r->summary.dump(2) << "\n";
        return say_what_the_llm_did(r->llm, summary, true);
    }
    std::cout << fmt::format("{}: {:.2f} us -> {:.2f} us after stage I -> {:.2f} us after stage II ({:.2f}x, simulated)\n", op->display_name(),
                             r->stage1.baseline_us, r->stage1.best_us, r->final_us, r->stage1.baseline_us / r->final_us);
    for (const auto& x : r->stage1.accepted)
        std::cout << fmt::format("  accepted: record #{} {} ({:.2f} -> {:.2f} us)\n", x.record, x.family, x.before_us, x.after_us);
    std::cout << fmt::format("evaluations: {} in stage I, {} in stage II\noptimized operator: {}\nsummary: {}\n", r->stage1_evaluations,
                             r->stage2_evaluations, r->optimized_dir.string(), summary.string());
    return say_what_the_llm_did(r->llm, summary, a.quiet);
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
    cmd->add_option("--top-k", a->top_k, "Experience records per diagnosis: shown to the LLM, or (without one) records that yield a candidate")->capture_default_str();
    cmd->add_option("--out", a->out, "Output folder (run stores, optimized operator, summary.json); rerun to resume")
        ->default_str("optimize-<OpType>");
    cmd->add_flag("--no-llm", a->no_llm, "Stage I uses the transfer proposer even when an LLM is configured");
    cmd->add_flag("--json", a->json, "Print the summary as JSON");
    cmd->add_flag("--quiet,-q", a->quiet, "No progress on stderr");
    add_common_eval_options(*cmd, a->eval);
    add_replay_option(*cmd, a->eval);
    add_robust_option(*cmd, a->eval);
    add_setting_flags(*cmd, a->settings);
    cmd->footer(k_exit_codes_help);
    return [a] { return run_optimize(*a); };
}

}  // namespace ascendopt
