// What every evaluating subcommand sets up: the toolchain, the SoC description, the build
// cache and the golden runner. Failures are printed here and turned into an exit code.
#pragma once

#include <memory>
#include <optional>
#include <variant>

#include "eval/evaluator.h"

namespace ascendopt {

struct EvalSession {
    Toolchain toolchain;
    std::unique_ptr<Builder> builder;
    std::unique_ptr<GoldenRunner> golden;
    std::unique_ptr<Evaluator> evaluator;
};

// Fills options.soc_description. On failure prints the error and returns the exit code.
std::variant<EvalSession, int> open_session(EvalOptions& options);

// Exit code for an Error returned by Evaluator::evaluate.
int exit_code_for(const Error& e);

// Progress on stderr when it is a terminal and not --quiet; clear() erases the line.
class Progress {
public:
    explicit Progress(bool quiet);
    ProgressFn callback();
    void clear();

private:
    bool m_on;
};

}  // namespace ascendopt
