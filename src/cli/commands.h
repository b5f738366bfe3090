// Subcommands of the ascendopt binary. Each registers its options on the CLI11 app and
// returns an exit code when run.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace ascendopt {

using CommandRunner = std::function<int()>;

CommandRunner add_eval_command(CLI::App& app);

}  // namespace ascendopt
