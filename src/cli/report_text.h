// Human-readable rendering of evaluation results for the terminal.
#pragma once

#include <string>

#include "core/eval_result.h"
#include "util/result.h"

namespace ascendopt {

std::string render_eval(const EvalResult& r);

// "ascendopt: error: <message>\n  hint: <hint>\n<detail>" for stderr.
std::string render_error(const Error& e);

}  // namespace ascendopt
