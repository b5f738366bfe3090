// `ascendopt report DIR`: the study's results (DIR/results.json from `ascendopt bench`) as
// Markdown and as one self-contained HTML file: the results table (method x level: GM and
// fast_p), per-operator speedups, and plots drawn by gnuplot as inline SVG (progress versus
// budget per method, per-operator speedups). JSON and CSV are written by bench itself.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "util/result.h"

namespace ascendopt {

std::string report_markdown(const nlohmann::json& results);
// Runs gnuplot for the plots; its absence is an error that names the package.
Result<std::string> report_html(const nlohmann::json& results);

}  // namespace ascendopt
