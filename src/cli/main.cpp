// ascendopt: makes Ascend C operators faster and proves each gain by running them.
#include <cstdlib>
#include <iostream>

#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "eval/build_config.h"
#include "util/scrubbing_stream.h"
#include "util/files.h"
#include "util/secrets.h"
#include "util/subprocess.h"

int main(int argc, char** argv) {
    using namespace ascendopt;
    // Nothing ascendopt prints shows an API key: keys from the environment are known from the
    // start, one from a configuration file when it is read (cli/config.cpp). Nor can a process
    // it starts read them from /proc/<pid>/environ.
    for (const char* name : {"ASCENDOPT_LLM_API_KEY", "OPENAI_API_KEY"}) hide_secret_environment_variable(name);
    scrub_standard_streams();
    kill_children_on_termination_signals();
    {
        std::error_code ec;  // scratch folders of ascendopt runs that were killed or crashed
        sweep_abandoned_temp_dirs(std::filesystem::temp_directory_path(ec), "ascendopt-");
    }
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
    const CommandRunner soc = add_soc_command(app);
    const CommandRunner calibrate = add_calibrate_command(app);
    remember_command_line(argc, argv);
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
        if (app.got_subcommand("soc")) return soc();
        if (app.got_subcommand("calibrate")) return calibrate();
    } catch (const std::exception& e) {
        std::cerr << "ascendopt: error: internal error: " << e.what() << "\n";
        return k_exit_internal;
    }
    return k_exit_bad_input;
}
