// `ascendopt check TREE`: builds and runs every operator under a tree and prints the
// compatibility table (eval/tree_check.h). With --out the JSON is rewritten after every
// operator, so a run stopped midway keeps what it measured.
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/report_check.h"
#include "cli/report_text.h"
#include "cli/session.h"
#include "eval/build_config.h"
#include "util/files.h"

namespace ascendopt {
namespace {

struct CheckArgs {
    std::string tree;
    std::vector<std::string> suites;
    std::string match;
    std::string out;
    bool json = false;
    bool quiet = false;
    bool details = false;
    EvalOptions options;
};

int run_check(const CheckArgs& a) {
    std::error_code ec;
    if (!std::filesystem::is_directory(a.tree, ec)) {
        std::cerr << render_error(make_error(a.tree + " is not a folder", "name a tree of operators, e.g. your cann-ops checkout's src/"));
        return k_exit_bad_input;
    }
    std::vector<std::filesystem::path> folders;
    for (const auto& f : find_operator_folders(a.tree))
        if (a.match.empty() || f.generic_string().find(a.match) != std::string::npos) folders.push_back(f);
    if (folders.empty()) {
        std::cerr << render_error(make_error("no operator folder under " + a.tree + (a.match.empty() ? "" : " matching '" + a.match + "'"),
                                             "an operator folder holds op_host/ and op_kernel/"));
        return k_exit_bad_input;
    }
    EvalOptions options = a.options;
    options.hidden_case = false;  // the table reports the manifests' own cases
    auto opened = open_session(options);
    if (auto* code = std::get_if<int>(&opened)) return *code;
    EvalSession& session = std::get<EvalSession>(opened);
    std::vector<std::filesystem::path> suites(a.suites.begin(), a.suites.end());
    const auto manifests = ManifestIndex::from_suites(suites);
    const TreeCheckOptions check{a.tree, suites};

    std::vector<OperatorCheck> checks;
    for (size_t i = 0; i < folders.size(); ++i) {
        auto c = check_operator(*session.evaluator, check, manifests, folders[i]);
        if (!c) {
            std::cerr << render_error(c.error());
            return exit_code_for(c.error());
        }
        if (!a.quiet) std::cerr << "[" << (i + 1) << "/" << folders.size() << "] " << check_progress_line(*c) << "\n";
        checks.push_back(std::move(*c));
        if (!a.out.empty()) {
            if (auto s = write_atomic(a.out, check_json(a.tree, checks, i + 1 == folders.size()).dump(2) + "\n"); !s) {
                std::cerr << render_error(s.error());
                return k_exit_bad_input;
            }
        }
    }
    if (a.json) std::cout << check_json(a.tree, checks, true).dump(2) << "\n";
    else std::cout << render_check(a.tree, checks, a.details);
    const bool all_pass = std::all_of(checks.begin(), checks.end(), [](const OperatorCheck& c) { return c.passes() || !c.out_of_scope.empty(); });
    return all_pass ? k_exit_ok : k_exit_failed;
}

}  // namespace

CommandRunner add_check_command(CLI::App& app) {
    auto a = std::make_shared<CheckArgs>();
    // The benchmark levels, and manifests for operators outside the benchmark whose smoke case
    // their tiling refuses (suite/cann-ops-tree).
    for (const char* level : {"level1", "level2", "level3", "tree"}) a->suites.push_back(std::string(ASCENDOPT_SOURCE_DIR) + "/suite/cann-ops-" + level);
    CLI::App* cmd = app.add_subcommand("check", "Build and run every operator under a tree (e.g. cann-ops src/) and print what the twin supports");
    cmd->add_option("tree", a->tree, "Folder to search for operator folders (op_host/ and op_kernel/)")->required();
    cmd->add_option("--suite", a->suites,
                    "Folder of manifests for the tree's operators (their cann_ops paths are matched against the tree); "
                    "operators without one get a smoke run")
        ->capture_default_str();
    cmd->add_option("--match", a->match, "Check only operators whose path contains this text");
    cmd->add_option("--out", a->out, "Also write the JSON result here, rewritten after every operator");
    add_common_eval_options(*cmd, a->options);
    cmd->add_flag("--json", a->json, "Print the result as JSON");
    cmd->add_flag("--quiet,-q", a->quiet, "No per-operator progress on stderr");
    cmd->add_flag("--details", a->details, "Show why each failing operator failed: the compiler output, or its case's verdict and log");
    cmd->footer(
        "Each operator is evaluated with the cases of its manifest (its own ascendopt.toml, or one under --suite whose\n"
        "cann_ops path ends the operator's path); otherwise with a smoke case from its OpDef (the first dtype\n"
        "combination, shape [32, 64], no golden: it passes when the run ends without error and writes every output).\n"
        "Exit codes: 0 every operator passed, 1 some did not, 2 bad input, 3 missing tool, 4 internal error.");
    return [a] { return run_check(*a); };
}

}  // namespace ascendopt
