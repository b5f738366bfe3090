// `ascendopt profile OP`: per-pipe profile and Chrome trace of one operator's perf cases
// (or of the case named by --case), on the twin's timing model.
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/report_profile.h"
#include "cli/report_text.h"
#include "cli/session.h"
#include "eval/case_runner.h"
#include "util/files.h"

namespace ascendopt {
namespace {

struct ProfileArgs {
    std::string op;
    std::string case_name;
    std::string trace;  // file for the trace; default <OpType>.<case>.trace.json
    bool json = false;
    bool quiet = false;
    EvalOptions options;
};

fs::path trace_destination(const ProfileArgs& args, const std::string& op, const std::string& case_name, size_t cases) {
    if (!args.trace.empty() && cases == 1) return args.trace;
    fs::path base = args.trace.empty() ? fs::path(".") : fs::path(args.trace).parent_path();
    const std::string stem = args.trace.empty() ? op : fs::path(args.trace).stem().string();
    return trace_path(base.empty() ? fs::path(".") : base, stem + "." + case_name);
}

int run_profile(const ProfileArgs& args) {
    EvalOptions options = args.options;
    if (!options.timing) {
        std::cerr << "ascendopt: error: a profile comes from the timing model; --no-timing turns it off\n";
        return k_exit_bad_input;
    }
    // On the npu backend the profile is the CANN profiler's (msprof op); there is no trace.
    const bool device = options.backend == "npu";
    options.device_profile = device;
    EvalRequest request;
    if (!args.case_name.empty()) request.case_filter = args.case_name;
    else request.role_filter = CaseRole::perf;
    auto scratch = make_temp_dir(fs::temp_directory_path(), "ascendopt-profile");
    if (!scratch) {
        std::cerr << render_error(scratch.error());
        return k_exit_environment;
    }
    options.trace_dir = *scratch;
    auto opened = open_session(options);
    if (auto* code = std::get_if<int>(&opened)) return *code;
    EvalSession& session = std::get<EvalSession>(opened);

    auto op = load_operator(args.op);
    if (!op) {
        std::cerr << render_error(op.error());
        return k_exit_bad_input;
    }
    Progress progress(args.quiet);
    auto result = session.evaluator->evaluate(*op, request, progress.callback());
    progress.clear();
    if (!result) {
        std::cerr << render_error(result.error());
        return exit_code_for(result.error());
    }
    int exit_code = k_exit_ok;
    nlohmann::json all = nlohmann::json::array();
    for (const auto& c : result->cases) {
        if (c.status != EvalStatus::ok) {
            std::cerr << "ascendopt: error: case " << c.name << " did not pass (" << status_name(c.status) << ": " << c.reason
                      << "); a profile needs a passing run\n";
            exit_code = k_exit_failed;
            continue;
        }
        nlohmann::json summary = profile_summary(c, result->latency_source);
        if (device) {
            if (args.json) all.push_back(summary);
            else std::cout << render_profile(result->op_name, summary) << "\n";
            continue;
        }
        const fs::path dest = trace_destination(args, result->op_name, c.name, result->cases.size());
        std::error_code ec;
        fs::copy_file(trace_path(*scratch, c.name), dest, fs::copy_options::overwrite_existing, ec);
        if (ec) {
            std::cerr << "ascendopt: error: cannot write the trace to " << dest.string() << ": " << ec.message() << "\n";
            exit_code = k_exit_bad_input;
        } else {
            summary["trace"] = dest.string();
        }
        if (args.json) all.push_back(summary);
        else std::cout << render_profile(result->op_name, summary) << "\n";
    }
    fs::remove_all(*scratch);
    if (args.json) std::cout << (all.size() == 1 ? all[0] : all).dump(2) << "\n";
    return exit_code;
}

}  // namespace

CommandRunner add_profile_command(CLI::App& app) {
    auto args = std::make_shared<ProfileArgs>();
    CLI::App* cmd = app.add_subcommand("profile", "Per-pipe profile and Chrome trace of an operator on the twin's timing model");
    cmd->add_option("operator", args->op, "Operator folder, folder with ascendopt.toml, or manifest file")->required();
    cmd->add_option("--case", args->case_name, "Profile this case (default: every perf case)");
    cmd->add_option("--trace", args->trace, "Chrome-trace JSON to write (default: <OpType>.<case>.trace.json here)");
    cmd->add_flag("--json", args->json, "Print the profile as JSON");
    cmd->add_flag("--quiet,-q", args->quiet, "No progress on stderr");
    add_common_eval_options(*cmd, args->options);
    cmd->footer(k_exit_codes_help);
    return [args] { return run_profile(*args); };
}

}  // namespace ascendopt
