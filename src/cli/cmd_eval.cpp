// `ascendopt eval OP...`: build, run and check operators on the twin.
#include <unistd.h>

#include <iostream>
#include <memory>
#include <thread>

#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/report_text.h"
#include "ascendopt_twin/soc.h"
#include "eval/evaluator.h"
#include "util/files.h"

namespace ascendopt {
namespace {

struct EvalArgs {
    std::vector<std::string> ops;
    std::string case_name;
    bool json = false;
    bool quiet = false;
    EvalOptions options;
};

int run_eval(const EvalArgs& args) {
    auto tc = detect_toolchain();
    if (!tc) {
        std::cerr << render_error(tc.error());
        return k_exit_environment;
    }
    if (!ascendopt_twin::find_soc(args.options.soc)) {
        std::cerr << render_error(make_error("unknown SoC '" + args.options.soc + "'", "known: " + ascendopt_twin::known_socs()));
        return k_exit_bad_input;
    }
    Builder builder(*tc, cache_root());
    GoldenRunner golden(*tc, cache_root());
    EvalOptions options = args.options;
    if (!args.case_name.empty()) options.case_filter = args.case_name;
    auto evaluator = make_twin_evaluator(builder, golden, options);
    const bool progress_on = !args.quiet && isatty(STDERR_FILENO);
    ProgressFn progress = [&](const std::string& what, const std::string& detail) {
        if (progress_on) std::cerr << "\r\033[K" << what << ": " << detail << std::flush;
    };

    int exit_code = k_exit_ok;
    nlohmann::json all = nlohmann::json::array();
    std::vector<EvalResult> results;
    for (const auto& path : args.ops) {
        auto op = load_operator(path);
        if (!op) {
            std::cerr << render_error(op.error());
            return k_exit_bad_input;
        }
        auto result = evaluator->evaluate(*op, progress);
        if (progress_on) std::cerr << "\r\033[K" << std::flush;
        if (!result) {
            std::cerr << render_error(result.error());
            const bool tool = result.error().message.find("no Python") != std::string::npos ||
                              result.error().message.find("ASCENDOPT_PYTHON") != std::string::npos;
            return tool ? k_exit_environment : k_exit_bad_input;
        }
        if (result->status != EvalStatus::ok) exit_code = k_exit_failed;
        result->op_dir = path;  // as the user named it
        if (args.json) all.push_back(to_json(*result));
        else std::cout << render_eval(*result) << std::flush;
        results.push_back(std::move(*result));
    }
    if (!args.json && results.size() > 1) std::cout << render_summary(results);
    if (args.json) std::cout << (all.size() == 1 ? all[0] : all).dump(2) << "\n";
    return exit_code;
}

}  // namespace

CommandRunner add_eval_command(CLI::App& app) {
    auto args = std::make_shared<EvalArgs>();
    args->options.jobs = int(std::max(1u, std::thread::hardware_concurrency()));
    CLI::App* cmd = app.add_subcommand("eval", "Build, run and check operators on the Ascend C twin");
    cmd->add_option("operator", args->ops, "Operator folder (cann-ops layout), folder with ascendopt.toml, or manifest file")
        ->required();
    cmd->add_option("--case", args->case_name, "Run only the case with this name");
    cmd->add_option("--soc", args->options.soc, "SoC to model")->capture_default_str();
    cmd->add_option("--seed", args->options.seed, "Seed of the generated inputs")->capture_default_str();
    cmd->add_option("--timeout", args->options.timeout_seconds, "Seconds each case may run")->capture_default_str();
    cmd->add_option("--jobs,-j", args->options.jobs, "Parallel kernel builds")->capture_default_str();
    cmd->add_flag("--keep", args->options.keep_work_dirs, "Keep the per-case work folders (inputs, outputs, job files)");
    cmd->add_flag("--json", args->json, "Print results as JSON");
    cmd->add_flag("--quiet,-q", args->quiet, "No progress on stderr");
    cmd->footer(k_exit_codes_help);
    return [args] { return run_eval(*args); };
}

}  // namespace ascendopt
