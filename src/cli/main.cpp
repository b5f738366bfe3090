// ascendopt: makes Ascend C operators faster and proves each gain by running them.
#include <iostream>

#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "eval/build_config.h"

int main(int argc, char** argv) {
    using namespace ascendopt;
    CLI::App app{"ascendopt " ASCENDOPT_VERSION ": optimize Ascend C operators (sim backend: the Ascend C twin)"};
    app.set_version_flag("--version", ASCENDOPT_VERSION);
    app.require_subcommand(1);
    app.footer(k_exit_codes_help);
    const CommandRunner eval = add_eval_command(app);
    const CommandRunner profile = add_profile_command(app);
    const CommandRunner tune = add_tune_command(app);
    const CommandRunner llm = add_llm_command(app);
    const CommandRunner config = add_config_command(app);
    const CommandRunner bank = add_bank_command(app);
    const CommandRunner rewind = add_rewind_command(app);
    const CommandRunner optimize = add_optimize_command(app);
    const CommandRunner bench = add_bench_command(app);
    const CommandRunner report = add_report_command(app);
    const CommandRunner check = add_check_command(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return app.exit(e);
        std::cerr << "ascendopt: error: " << e.what() << "\n  hint: ascendopt --help\n";
        return k_exit_bad_input;
    }
    try {
        if (app.got_subcommand("eval")) return eval();
        if (app.got_subcommand("profile")) return profile();
        if (app.got_subcommand("tune")) return tune();
        if (app.got_subcommand("llm")) return llm();
        if (app.got_subcommand("config")) return config();
        if (app.got_subcommand("bank")) return bank();
        if (app.got_subcommand("rewind")) return rewind();
        if (app.got_subcommand("optimize")) return optimize();
        if (app.got_subcommand("bench")) return bench();
        if (app.got_subcommand("report")) return report();
        if (app.got_subcommand("check")) return check();
    } catch (const std::exception& e) {
        std::cerr << "ascendopt: error: internal error: " << e.what() << "\n";
        return k_exit_internal;
    }
    return k_exit_bad_input;
}
