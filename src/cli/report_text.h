// Human-readable rendering of evaluation results for the terminal.
#pragma once

#include <string>
#include <vector>

#include "core/eval_result.h"
#include "util/result.h"

namespace ascendopt {

std::string render_eval(const EvalResult& r);

// One line per operator: cases passed, status, build time; used when several are evaluated.
std::string render_summary(const std::vector<EvalResult>& results);

// "ascendopt: error: <message>\n  hint: <hint>\n<detail>" for stderr.
std::string render_error(const Error& e);

}  // namespace ascendopt
