// `ascendopt eval OP...`: build, run and check operators on the twin.
#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/report_text.h"
#include "cli/session.h"
#include "eval/build_config.h"
#include "eval/tree_check.h"
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

// When the goldens of a cann-ops operator's own test cases cannot run (they import TensorFlow)
// and ascendopt ships numpy goldens for it, says how to use those.
std::string bundled_manifest_hint(const OperatorSource& op, const EvalResult& r) {
    const bool golden_failed = std::any_of(r.cases.begin(), r.cases.end(), [](const CaseResult& c) { return c.status == EvalStatus::golden_failed; });
    if (!golden_failed || !op.manifest.empty()) return "";
    const auto suite = std::filesystem::path(ASCENDOPT_SOURCE_DIR) / "suite" / "cann-ops-level1";
    const auto match = ManifestIndex::from_suites({suite}).find(op.root);
    if (!match) return "";
    return "  hint: ascendopt ships cases with numpy goldens for this operator: ascendopt eval " + match->manifest.parent_path().string() +
           " --cann-ops " + match->checkout.string() + "\n";
}

int run_eval(const EvalArgs& args) {
    EvalOptions options = args.options;
    EvalRequest request;
    if (!args.case_name.empty()) request.case_filter = args.case_name;
    auto opened = open_session(options);
    if (auto* code = std::get_if<int>(&opened)) return *code;
    EvalSession& session = std::get<EvalSession>(opened);
    Progress progress(args.quiet);

    int exit_code = k_exit_ok;
    nlohmann::json all = nlohmann::json::array();
    std::vector<EvalResult> results;
    for (const auto& path : args.ops) {
        auto op = load_operator(path);
        if (!op) {
            std::cerr << render_error(op.error());
            return k_exit_bad_input;
        }
        auto result = session.evaluator->evaluate(*op, request, progress.callback());
        progress.clear();
        if (!result) {
            std::cerr << render_error(result.error());
            return exit_code_for(result.error());
        }
        if (result->status != EvalStatus::ok) exit_code = k_exit_failed;
        result->op_dir = path;  // as the user named it
        if (args.json) all.push_back(to_json(*result));
        else std::cout << render_eval(*result) << bundled_manifest_hint(*op, *result) << std::flush;
        results.push_back(std::move(*result));
    }
    if (args.json) std::cout << (all.size() == 1 ? all[0] : all).dump(2) << "\n";
    if (!args.json && results.size() > 1) std::cout << render_summary(results);
    return exit_code;
}

}  // namespace

CommandRunner add_eval_command(CLI::App& app) {
    auto args = std::make_shared<EvalArgs>();
    CLI::App* cmd = app.add_subcommand("eval", "Build, run and check operators on the Ascend C twin");
    cmd->add_option("operator", args->ops, "Operator folder (cann-ops layout), folder with ascendopt.toml, or manifest file")
        ->required();
    cmd->add_option("--case", args->case_name, "Run only the case with this name");
    cmd->add_flag("!--no-screen", args->options.screen,
                  "Skip the static screen for code you vouch for (it refuses some constructs real code may use); the seccomp "
                  "filter, the build's start-up check and the sandbox still confine it (docs/sandbox.md)");
    add_common_eval_options(*cmd, args->options);
    cmd->add_flag("--json", args->json, "Print results as JSON");
    cmd->add_flag("--quiet,-q", args->quiet, "No progress on stderr");
    cmd->footer(k_exit_codes_help);
    return [args] { return run_eval(*args); };
}

}  // namespace ascendopt
