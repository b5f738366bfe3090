// Subcommands of the ascendopt binary. Each registers its options on the CLI11 app and
// returns an exit code when run.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace ascendopt {

using CommandRunner = std::function<int()>;

struct EvalOptions;

CommandRunner add_eval_command(CLI::App& app);
CommandRunner add_profile_command(CLI::App& app);
CommandRunner add_tune_command(CLI::App& app);
CommandRunner add_llm_command(CLI::App& app);
CommandRunner add_config_command(CLI::App& app);
CommandRunner add_bank_command(CLI::App& app);
CommandRunner add_rewind_command(CLI::App& app);
CommandRunner add_optimize_command(CLI::App& app);
CommandRunner add_bench_command(CLI::App& app);
CommandRunner add_report_command(CLI::App& app);
CommandRunner add_check_command(CLI::App& app);
CommandRunner add_soc_command(CLI::App& app);
CommandRunner add_calibrate_command(CLI::App& app);

// The command line ascendopt was started with (main remembers it): what a cluster task reruns.
void remember_command_line(int argc, char** argv);
const std::vector<std::string>& command_line();

// Options shared by eval and profile: --soc, --seed, --timeout, --jobs, --keep, --sim-noise, --repeats.
void add_common_eval_options(CLI::App& cmd, EvalOptions& options);
// The searches (tune, optimize, rewind, bench) replay identical evaluations (eval/eval_memo.h)
// unless --no-replay.
void add_replay_option(CLI::App& cmd, EvalOptions& options);
// --robust (optimize, tune, bench): EvalOptions::robust.
void add_robust_option(CLI::App& cmd, EvalOptions& options);

}  // namespace ascendopt
