// `ascendopt tune OP`: Stage II tiling search on the twin's timing model.
#include <unistd.h>

#include <iostream>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/report_text.h"
#include "cli/session.h"
#include "eval/build_config.h"
#include "eval/soc_loader.h"
#include "search/tunables.h"
#include "search/tuner.h"
#include "util/files.h"

namespace ascendopt {
namespace {

struct TuneArgs {
    std::string op;
    std::string out;
    bool json = false;
    bool quiet = false;
    bool explain = false;
    std::optional<uint64_t> search_seed;
    TuneOptions tune;
    EvalOptions eval;
};

// `tune --explain`: every integer constant the search would consider, searched or not, and why.
int explain_tunables(const TuneArgs& args) {
    auto op = load_operator(args.op);
    if (!op) {
        std::cerr << render_error(op.error());
        return k_exit_bad_input;
    }
    auto soc = load_soc(args.eval.soc, ASCENDOPT_SHARE_DIR);
    if (!soc) {
        std::cerr << render_error(soc.error());
        return k_exit_bad_input;
    }
    std::vector<std::string> left_out;
    auto tunables = find_tunables(*op, (*soc)["memory"].value("ub", uint64_t(196608)), &left_out);
    if (!tunables) {
        std::cerr << render_error(tunables.error());
        return k_exit_bad_input;
    }
    std::cout << fmt::format("{}: {} constants searched, {} left out\n", op->display_name(), tunables->size(), left_out.size());
    for (const auto& t : *tunables) {
        std::string sites, domain;
        for (const auto& site : t.sites) sites += (sites.empty() ? "" : ", ") + site.file + ":" + std::to_string(site.line);
        for (int64_t v : t.domain) domain += (domain.empty() ? "" : ", ") + std::to_string(v);
        std::cout << fmt::format("  in   {} = {} at {}: {}; values [{}]\n", t.name, t.value, sites, t.why, domain);
    }
    for (const auto& why : left_out) std::cout << "  out  " << why << "\n";
    return k_exit_ok;
}

int run_tune(TuneArgs& args) {
    if (args.explain) return explain_tunables(args);
    args.tune.seed = args.search_seed.value_or(args.eval.seed);  // --seed seeds the search too
    auto opened = open_session(args.eval);
    if (auto* code = std::get_if<int>(&opened)) return *code;
    EvalSession& session = std::get<EvalSession>(opened);
    auto op = load_operator(args.op);
    if (!op) {
        std::cerr << render_error(op.error());
        return k_exit_bad_input;
    }
    args.tune.out_dir = args.out.empty() ? fs::path("tune-" + op->display_name()) : fs::path(args.out);
    args.tune.workers = args.eval.jobs;
    // On a terminal the progress line is rewritten in place; in a log, a line per tenth of the budget.
    const bool show = !args.quiet;
    const bool tty = isatty(STDERR_FILENO);
    int64_t next_report = 0;
    auto result = tune(*op, *session.evaluator, args.tune, [&](const TuneProgress& p) {
        if (!show || (!tty && p.used < next_report && p.used < p.budget)) return;
        next_report = p.used + std::max<int64_t>(1, p.budget / 10);
        const double per = p.used > 0 ? p.seconds / double(p.used) : 0;
        std::cerr << fmt::format("{}tune: {}/{} evaluations ({} cached), best {}{}, ETA {:.0f} s{}", tty ? "\r\033[K" : "", p.used,
                                 p.budget, p.cache_hits, p.best_us ? fmt::format("{:.2f} us", *p.best_us) : "-",
                                 p.best_us && p.baseline_us ? fmt::format(" ({:.2f}x)", *p.baseline_us / *p.best_us) : "",
                                 per * double(p.budget - p.used), tty ? "" : "\n")
                  << std::flush;
    });
    if (show && tty) std::cerr << "\n";
    if (!result) {
        std::cerr << render_error(result.error());
        return exit_code_for(result.error());
    }
    if (result->nothing_to_tune) {
        std::cerr << render_error(make_error("no tunable constants found in " + op->root.string(), "see docs/stage2.md for markers"));
        return k_exit_bad_input;
    }
    if (args.json) {
        std::cout << result->summary.dump(2) << "\n";
        return k_exit_ok;
    }
    std::cout << fmt::format("{}: best {:.2f} us (simulated)", result->summary["operator"].get<std::string>(), *result->best_us);
    if (result->baseline_us) std::cout << fmt::format(", baseline {:.2f} us, speedup {:.2f}x", *result->baseline_us, *result->baseline_us / *result->best_us);
    std::cout << fmt::format("\n{} evaluations, {} cache hits\n", result->evaluations, result->cache_hits);
    for (const auto& [name, value] : result->best)
        std::cout << fmt::format("  {} = {}{}\n", name, value, value == result->baseline.at(name) ? "" : fmt::format("  (was {})", result->baseline.at(name)));
    for (const auto& why : result->summary["left_out"]) std::cout << "  left out: " << why.get<std::string>() << "\n";
    std::cout << "tuned operator: " << result->tuned_dir.string() << "\nrun store: " << (args.tune.out_dir / "run.db").string()
              << "\nsummary: " << (args.tune.out_dir / "summary.json").string() << "\n";
    return k_exit_ok;
}

}  // namespace

CommandRunner add_tune_command(CLI::App& app) {
    auto args = std::make_shared<TuneArgs>();
    CLI::App* cmd = app.add_subcommand("tune", "Stage II: search the tiling constants of an operator on the timing model");
    cmd->add_option("operator", args->op, "Operator folder, folder with ascendopt.toml, or manifest file")->required();
    cmd->add_option("--budget", args->tune.budget, "Unique evaluations to spend")->check(CLI::Range(1, 100000))->capture_default_str();
    cmd->add_option("--strategy", args->tune.strategy, "ga, random or exhaustive")->capture_default_str();
    cmd->add_option("--out", args->out, "Output folder (run store, summary, tuned operator); rerun to resume")
        ->default_str("tune-<OpType>");
    cmd->add_option("--search-seed", args->search_seed, "Seed of the search strategy alone (default: --seed)");
    cmd->add_flag("--json", args->json, "Print the summary as JSON");
    cmd->add_flag("--explain", args->explain, "List each integer constant the search considers, searched or left out, and why; no search");
    cmd->add_flag("--quiet,-q", args->quiet, "No progress on stderr");
    add_common_eval_options(*cmd, args->eval);
    add_replay_option(*cmd, args->eval);
    add_robust_option(*cmd, args->eval);
    cmd->footer(k_exit_codes_help);
    return [args] { return run_tune(*args); };
}

}  // namespace ascendopt
