// `ascendopt report DIR`: the study's results (DIR/results.json from `ascendopt bench`) as
// Markdown and as one self-contained HTML file. Both are rendered from one list of sections:
// the results table (method x level: GM and fast_p), the ablation table, LLM calls, tokens and
// cost per method, plots drawn by gnuplot as inline SVG (progress versus budget per method,
// speedup distribution, per-operator speedups; HTML only) and per-operator detail (baseline
// versus best latency, the accepted rewrites as diffs). JSON and CSV are written by bench.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "util/result.h"

namespace ascendopt {

std::string report_markdown(const nlohmann::json& results);
// Runs gnuplot for the plots; its absence is an error that names the package.
Result<std::string> report_html(const nlohmann::json& results);

}  // namespace ascendopt
